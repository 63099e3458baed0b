package integration

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A session on YARN: one application serves many clients' jobs, in the
// pools of the allocation file it was started with, on executors it
// shares among them, growing with the backlog and giving
// idle executors back down to minExecutors between bursts; its client
// port takes nothing unauthenticated; session stop cancels what runs and
// ends the application FINISHED/SUCCEEDED.
func TestYarnSessionSharesExecutorsAcrossJobs(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	pools := filepath.Join(t.TempDir(), "pools.xml")
	if err := os.WriteFile(pools, []byte(`<allocations><pool name="prod"><weight>2</weight><schedulingMode>FAIR</schedulingMode></pool></allocations>`), 0o644); err != nil {
		t.Fatal(err)
	}
	id := u.startSession("--master", "yarn", "--name", "yarn-session", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=1",
		"--conf", "spindle.scheduler.mode=FAIR", "--conf", "spindle.scheduler.allocation.file="+pools,
		"--conf", "spindle.dynamicAllocation.enabled=true", "--conf", "spindle.dynamicAllocation.minExecutors=1",
		"--conf", "spindle.dynamicAllocation.maxExecutors=4", "--conf", "spindle.dynamicAllocation.executorIdleTimeout=1s",
		"--conf", "spindle.dynamicAllocation.warmPool.size=0", "--conf", "spindle.dynamicAllocation.surplusIdleTimeout=1s",
		"--conf", "spindle.session.maxPendingTasksPerJob=8")
	appID, err := yarn.ParseApplicationID(id)
	if err != nil {
		t.Fatalf("SESSION=%s: %v", id, err)
	}
	rm := applicationClient(t, c)

	// Idle, the session keeps minExecutors: the AM and one executor.
	waitContainers(t, c, 2, 2, time.Minute, "an idle session")

	// Two clients at once: a burst of 8 one-core tasks and a job that fails.
	ran := filepath.Join(t.TempDir(), "ran")
	burst, burstOut := u.start("submit", "--session", id, "--name", "burst", "--tasks", "8", "--", "sh", "-c", "echo $SPINDLE_EXECUTOR_ID >> "+ran+"; sleep 3")
	bad, badOut := u.start("submit", "--session", id, "--name", "bad", "--conf", "spindle.task.maxFailures=1", "--tasks", "1", "--", "false")
	peak := 0
	done := make(chan error, 1)
	go func() { done <- burst.Wait() }()
	for running := true; running; {
		select {
		case err := <-done:
			running = false
			if err != nil || !strings.Contains(burstOut.String(), "job burst SUCCEEDED") {
				t.Fatalf("the burst: %v\n%s", err, burstOut.String())
			}
		case <-time.After(200 * time.Millisecond):
			peak = max(peak, runningContainers(t, c))
		}
	}
	if err := bad.Wait(); err == nil || !strings.Contains(badOut.String(), "job bad FAILED") {
		t.Errorf("the failing job: %v, want a non-zero exit\n%s", err, badOut.String())
	}
	// The AM keeps the session's limits as a local driver does: the burst's
	// 8 tasks were its spindle.session.maxPendingTasksPerJob, 9 are refused.
	if out, err := u.run("submit", "--session", id, "--name", "nine", "--tasks", "9", "--", "true"); err == nil ||
		!strings.Contains(out, `the session refused: job "nine" has 9 tasks waiting, more than spindle.session.maxPendingTasksPerJob (8)`) {
		t.Errorf("a job one task past the AM's limit: %v\n%s", err, out)
	}
	if peak < 4 {
		t.Errorf("at most %d containers ran during the burst: the session did not grow with the backlog", peak)
	}
	// The burst's executors, still there, run the next job's tasks: no
	// new container for it.
	burstExecutors := readFile(t, ran)
	os.Remove(ran)
	if out, err := u.run("submit", "--session", id, "--name", "next", "--tasks", "4", "--", "sh", "-c", "echo $SPINDLE_EXECUTOR_ID >> "+ran); err != nil {
		t.Fatalf("the next job: %v\n%s", err, out)
	}
	for _, e := range strings.Fields(readFile(t, ran)) {
		if !strings.Contains(burstExecutors, e) {
			t.Errorf("the next job ran on %s, a container the burst did not have (%s)", e, strings.Fields(burstExecutors))
		}
	}
	// Between bursts, idle executors go back, down to minExecutors.
	waitContainers(t, c, 2, 2, time.Minute, "the session after the burst")

	// A second burst runs on the same application, in a pool of the
	// session's allocation file (shipped to its AM): no notice of a pool
	// made up; executors come back for it.
	again, againOut := u.start("submit", "--session", id, "--name", "again", "--pool", "prod", "--tasks", "6", "--", "sleep", "3")
	waitContainers(t, c, 4, 5, time.Minute, "the session's executors to come back for the second burst")
	if err := again.Wait(); err != nil || !strings.Contains(againOut.String(), "job again SUCCEEDED") || strings.Contains(againOut.String(), `pool "prod"`) {
		t.Errorf("a later job in pool prod: %v\n%s", err, againOut.String())
	}
	out, err := u.run("jobs", id)
	for _, want := range []string{`burst\s+default\s+SUCCEEDED\s+8/8`, `bad\s+default\s+FAILED`, `again\s+prod\s+SUCCEEDED\s+6/6`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("spindle jobs: %v; no line matches %s\n%s", err, want, out)
		}
	}

	// The AM's client port, from the application report: nothing
	// unauthenticated gets through.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: appID})
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort(r.GetApplicationReport().GetHost(), strconv.Itoa(int(r.GetApplicationReport().GetRpcPort())))
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("the session's port %s: %v", addr, err)
	}
	conn.Write(append([]byte("SPWR\x01E"), bytes.Repeat([]byte{0}, 200)...))
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, _ := io.ReadAll(conn)
	conn.Close()
	if len(got) > 38 {
		t.Errorf("an unauthenticated peer read %d bytes", len(got))
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer dcancel()
	if c, err := wire.Dial(dctx, "tcp", addr, wire.NewSecret()); err == nil {
		c.Close()
		t.Error("a client with another secret connected")
	}

	// Stopping cancels the running job and ends the application.
	long, longOut := u.start("submit", "--session", id, "--name", "long", "--tasks", "1", "--", "sleep", "300")
	waitFor(t, time.Minute, "the long job to run", func() bool {
		out, _ := u.run("jobs", id)
		return regexp.MustCompile(`long\s+default\s+RUNNING\s+0/1`).MatchString(out)
	})
	out, err = u.run("session", "stop", id)
	if err != nil || !strings.Contains(out, "job") || !strings.Contains(out, "(long) cancelled") || !strings.Contains(out, "stopped (FINISHED, SUCCEEDED)") {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	if err := long.Wait(); err == nil || !strings.Contains(longOut.String(), "job long CANCELLED: the session stopped: spindle session stop") {
		t.Errorf("the long job's client: %v, want it told the job was cancelled\n%s", err, longOut.String())
	}
	waitContainers(t, c, 0, 0, time.Minute, "the stopped session")
	waitFor(t, 30*time.Second, "the session's processes to end", func() bool { return len(applicationProcesses(id)) == 0 })
}

// A YARN session of 8 task slots: pools share them by Spark's rules
// between clients' jobs; failures stay with their job; strangers are
// refused; session stop leaves no container and no process.
func TestYarnSessionSharesByPoolsAndKeepsJobsApart(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	id := u.startSession("--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.instances=4", "--conf", "spindle.scheduler.mode=FAIR", "--conf", "spindle.scheduler.allocation.file="+writePools(t))
	// The 8 slots are there before the clients come.
	waitContainers(t, c, 5, 5, time.Minute, "the session's AM and 4 executors")
	checkPoolShares(t, u, id)
	checkFailuresStayWithTheirJob(t, u, id)
	checkStrangersRefused(t, u, id)
	if out, err := u.run("session", "stop", id); err != nil || !strings.Contains(out, "stopped (FINISHED, SUCCEEDED)") {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	waitContainers(t, c, 0, 0, time.Minute, "the stopped session")
	waitFor(t, 30*time.Second, "the session's processes to end", func() bool { return len(applicationProcesses(id)) == 0 })
}
