package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// amRestartArgs run a job on three executors of two one-GPU task slots
// each: six of the cluster's eight GPUs, the AM's container beside them.
var amRestartArgs = []string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=3", "--conf", "spindle.executor.cores=2",
	"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.memory=512m"}

// An ApplicationMaster that dies mid-job leaves its work to the next
// attempt, which goes on with it: the executors YARN kept run the tasks
// after the fault (the same containers, attempt 1's), the tasks running
// at the fault run on to succeed (no second start), no task that had
// succeeded runs again, none runs twice at once, and the job succeeds
// in attempt 2. The AM dies two ways: SIGKILL, and as a NodeManager
// stops a container (SIGTERM to its processes, then SIGKILL).
func TestFaultAMRestartKeepsTheWork(t *testing.T) {
	c := testcluster.Get(t)
	for _, tc := range []struct {
		name string
		kill func(t *testing.T, app string)
	}{
		{"sigkill", func(t *testing.T, app string) { syscall.Kill(amProcess(t, app), syscall.SIGKILL) }},
		{"nodemanager-stop", stopAMContainer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const tasks = 30
			dir := t.TempDir()
			cmd, out := startOn(t, c, append(append([]string{}, amRestartArgs...), recordingSpec(t, dir, "am-"+tc.name, tasks, 2))...)
			defer cmd.Process.Kill()
			var app string
			waitFor(t, 2*time.Minute, "eight tasks to succeed", func() bool {
				m := submittedID.FindStringSubmatch(out.String())
				if m == nil {
					return false
				}
				app = m[1]
				return tasks-len(finished(readRunsIfAny(t, dir), tasks)) >= 8
			})
			kill := time.Now()
			tc.kill(t, app)
			if _, err := exited(t, cmd, 3*time.Minute); err != nil {
				t.Fatalf("the submitter: %v; want the job to succeed in attempt 2\n%s", err, out.String())
			}
			checkAttempt(t, c, app, 2)
			runs := readRuns(t, dir)
			if missing := finished(runs, tasks); len(missing) > 0 {
				t.Errorf("tasks %v never succeeded", missing)
			}
			if again := succeededAgain(runs, kill); len(again) > 0 {
				t.Errorf("tasks that had succeeded before the AM died ran again:\n%s", strings.Join(again, "\n"))
			}
			if twice := twiceAtOnce(runs, time.Now()); len(twice) > 0 {
				t.Errorf("tasks ran twice at once:\n%s", strings.Join(twice, "\n"))
			}
			if running, broken := keptRunning(runs, kill); running == 0 || len(broken) > 0 {
				t.Errorf("%d tasks were running when the AM died; want some, each running on to succeed, its only run:\n%s", running, strings.Join(broken, "\n"))
			}
			// Attempt 1's containers are container_<cluster>_<app>_01_<n>.
			after := 0
			for _, r := range runs {
				if r.Start.After(kill) {
					after++
					if !strings.Contains(r.Container, "_01_") {
						t.Errorf("%v: after the AM died a task ran in a container of attempt 2; want attempt 1's, kept", r)
					}
				}
			}
			if after == 0 {
				t.Errorf("no task started after the AM died; the test proves nothing (%d runs)", len(runs))
			}
			t.Logf("%s: %d runs, %d started after the AM died; %s", tc.name, len(runs), after, figures(runs, tasks, kill, time.Now()))
		})
	}
}

// Without a journal (spindle.yarn.am.journal=false) an
// ApplicationMaster that dies mid-job leaves
// attempt 2 nothing to go on with: it runs the job over from the start,
// under a job id and attempt numbers of its own range. Its executors,
// which YARN kept and attempt 2 cannot reach, may still run attempt 1's
// tasks, the very tasks attempt 2 starts first (the AM dies as the
// first six run): attempt 2 releases their containers, has their
// NodeManagers stop them and starts no task until each says it has. No
// task runs twice at once (a run killed with its container, which
// records no end, lasted until the last of attempt 1's executors'
// processes was gone), every run after the fault is attempt 2's, in a
// container of its own, and the job succeeds.
func TestFaultAMRestartWithoutAJournalRunsNoTaskTwiceAtOnce(t *testing.T) {
	c := testcluster.Get(t)
	const tasks = 18
	dir := t.TempDir()
	args := append(append([]string{}, amRestartArgs...), "--conf", "spindle.yarn.am.journal=false", recordingSpec(t, dir, "am-no-journal", tasks, 4))
	cmd, out := startOn(t, c, args...)
	defer cmd.Process.Kill()
	var app string
	waitFor(t, 2*time.Minute, "six tasks to start", func() bool {
		m := submittedID.FindStringSubmatch(out.String())
		b, _ := os.ReadFile(filepath.Join(dir, "record"))
		if m != nil {
			app = m[1]
		}
		return app != "" && strings.Count(string(b), "start ") >= 6
	})
	am := amProcess(t, app)
	amContainer := envValue(environ(am), "CONTAINER_ID")
	var kept []int // attempt 1's executors and what runs under them
	for _, pid := range applicationProcesses(app) {
		if ct := envValue(environ(pid), "CONTAINER_ID"); strings.Contains(ct, "_01_") && ct != amContainer {
			kept = append(kept, pid)
		}
	}
	kill := time.Now()
	syscall.Kill(am, syscall.SIGKILL)
	gone := watchGone(t, kept, 3*time.Minute)
	if _, err := exited(t, cmd, 4*time.Minute); err != nil {
		t.Fatalf("the submitter: %v; want the job to succeed in attempt 2\n%s", err, out.String())
	}
	checkAttempt(t, c, app, 2)
	deadBy := gone()
	runs := readRuns(t, dir)
	if missing := finished(runs, tasks); len(missing) > 0 {
		t.Errorf("tasks %v never succeeded", missing)
	}
	if twice := twiceAtOnce(runs, deadBy); len(twice) > 0 {
		t.Errorf("tasks ran twice at once:\n%s", strings.Join(twice, "\n"))
	}
	after := 0
	for _, r := range runs {
		if r.Start.After(kill) {
			after++
			if !strings.Contains(r.Container, "_02_") || r.Attempt < 1000 {
				t.Errorf("%v: after the AM died; want attempt 2's, in its own container, numbered from 1000", r)
			}
		}
	}
	if after < tasks {
		t.Errorf("%d runs after the AM died; want the job run over, %d or more", after, tasks)
	}
	t.Logf("%d runs, %d after the AM died; attempt 1's executors gone %.1fs after the kill; %s",
		len(runs), after, deadBy.Sub(kill).Seconds(), figures(runs, tasks, kill, deadBy))
}

// A session's AM that dies loses no client's job: its next attempt
// resumes both clients' jobs in the executors YARN kept, each client
// finds the session again and follows its job there, and both exit 0
// with their jobs succeeded, no task that had succeeded run again.
func TestFaultSessionAMRestartKeepsItsClientsJobs(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	// FAIR between two pools: both jobs run side by side, neither done
	// before the AM dies.
	id := u.startSession("--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.instances=3", "--conf", "spindle.scheduler.mode=FAIR")
	const tasks = 18
	dirs := []string{t.TempDir(), t.TempDir()}
	var clients []*exec.Cmd
	var outs []*syncBuffer
	for i, dir := range dirs {
		cmd, out := u.start("submit", "--session", id, "--pool", fmt.Sprintf("pool%d", i), recordingSpec(t, dir, fmt.Sprintf("client%d", i), tasks, 2))
		clients, outs = append(clients, cmd), append(outs, out)
	}
	waitFor(t, 2*time.Minute, "three tasks of each client's job to succeed", func() bool {
		for _, dir := range dirs {
			if tasks-len(finished(readRunsIfAny(t, dir), tasks)) < 3 {
				return false
			}
		}
		return true
	})
	kill := time.Now()
	syscall.Kill(amProcess(t, id), syscall.SIGKILL)
	for i, cmd := range clients {
		if _, err := exited(t, cmd, 3*time.Minute); err != nil || !strings.Contains(outs[i].String(), "again, at") {
			t.Errorf("client %d: %v; want it to follow its job to the next attempt and exit 0\n%s", i, err, outs[i].String())
		}
	}
	for i, dir := range dirs {
		runs := readRuns(t, dir)
		if missing := finished(runs, tasks); len(missing) > 0 {
			t.Errorf("client %d: tasks %v never succeeded", i, missing)
		}
		if again := succeededAgain(runs, kill); len(again) > 0 {
			t.Errorf("client %d: tasks that had succeeded before the AM died ran again:\n%s", i, strings.Join(again, "\n"))
		}
		if twice := twiceAtOnce(runs, time.Now()); len(twice) > 0 {
			t.Errorf("client %d: tasks ran twice at once:\n%s", i, strings.Join(twice, "\n"))
		}
		for _, r := range runs {
			if r.Start.After(kill) && !strings.Contains(r.Container, "_01_") {
				t.Errorf("client %d: %v: after the AM died a task ran in a container of attempt 2; want attempt 1's, kept", i, r)
			}
		}
		t.Logf("client %d: %s", i, figures(runs, tasks, kill, time.Now()))
	}
}
