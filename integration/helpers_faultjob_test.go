package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Helpers: the fault tests' job, a job a test brings a fault on mid-way
// (fault_*_test.go), the NodeManager slot a path or process is on, and
// a NodeManager replaced after its decommissioning.

// faultJob is a job of many short one-GPU tasks, recording their runs
// (helpers_records_test.go), that a test brings a fault on mid-way. Four
// executors of 2 GPUs and 2 cores fill the default cluster's 2 nodes of
// 4 GPUs: two on each node, eight tasks at once.
type faultJob struct {
	t   *testing.T
	c   *testcluster.Cluster
	dir string
	n   int
	cmd *exec.Cmd
	out *syncBuffer
	app string
}

// faultCluster is the cluster of the fault tests that change theirs:
// after an RM restart container ids carry its epoch, which the tests of
// the default cluster do not expect.
var faultCluster = testcluster.Config{Apart: "faults"}

// faultJobArgs run a fault job on four executors of 2 cores and 2 GPUs.
var faultJobArgs = []string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=4", "--conf", "spindle.executor.cores=2",
	"--executor-gpus", "2", "--conf", "spindle.executor.memory=512m"}

// startFaultJob submits n tasks of secs seconds each (extra comes after
// faultJobArgs, overriding them) and returns once every executor is busy:
// eight tasks have started.
func startFaultJob(t *testing.T, c *testcluster.Cluster, name string, n int, secs float64, extra ...string) *faultJob {
	t.Helper()
	return startFaultJobIn(t, c, t.TempDir(), name, n, secs, extra...)
}

// startHeldFaultJob is startFaultJob with the job's tasks held at their
// start (recordingSpec) until release is called: what is pending stays
// pending however long a fault takes.
func startHeldFaultJob(t *testing.T, c *testcluster.Cluster, name string, n int, secs float64, extra ...string) (j *faultJob, release func()) {
	t.Helper()
	dir := t.TempDir()
	hold := filepath.Join(dir, "hold")
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return startFaultJobIn(t, c, dir, name, n, secs, extra...), func() {
		if err := os.Remove(hold); err != nil {
			t.Fatal(err)
		}
	}
}

func startFaultJobIn(t *testing.T, c *testcluster.Cluster, dir, name string, n int, secs float64, extra ...string) *faultJob {
	t.Helper()
	if c.NodeManagers != 2 || c.GPUsPerNode != 4 {
		t.Skipf("a cluster of %d NodeManagers x %d GPUs; the fault tests take the default 2 x 4", c.NodeManagers, c.GPUsPerNode)
	}
	j := &faultJob{t: t, c: c, dir: dir, n: n}
	spec := recordingSpec(t, j.dir, name, n, secs)
	args := append(append(append([]string{}, faultJobArgs...), extra...), spec)
	j.cmd, j.out = startOn(t, c, args...)
	t.Cleanup(func() { j.cmd.Process.Kill() })
	waitFor(t, time.Minute, "eight tasks of "+name+" to start", func() bool {
		if m := submittedID.FindStringSubmatch(j.out.String()); m != nil {
			j.app = m[1]
		}
		b, _ := os.ReadFile(filepath.Join(j.dir, "record"))
		return j.app != "" && strings.Count(string(b), "start ") >= 8
	})
	return j
}

// succeeds waits for the submitter to say the job succeeded, and
// returns the task runs on record, having checked that every task ended
// its work and that no task ran twice at once. A run with no end on
// record (killed hard) was over by deadBy (zero: by now).
func (j *faultJob) succeeds(within time.Duration, deadBy time.Time) []taskRun {
	j.t.Helper()
	took, err := exited(j.t, j.cmd, within)
	if err != nil || !strings.Contains(j.out.String(), j.app+" FINISHED") {
		j.t.Fatalf("the job: %v after %v; want it to succeed\n%s", err, took, j.out.String())
	}
	runs := readRuns(j.t, j.dir)
	if missing := finished(runs, j.n); len(missing) > 0 {
		j.t.Errorf("tasks %v never finished their work", missing)
	}
	if deadBy.IsZero() {
		deadBy = time.Now()
	}
	for _, twice := range twiceAtOnce(runs, deadBy) {
		j.t.Errorf("ran twice at once: %s", twice)
	}
	return runs
}

// amLog is the job's ApplicationMaster's log, once it has unregistered.
func (j *faultJob) amLog() string {
	j.t.Helper()
	return readLogUntil(j.t, amFilePath(j.t, j.c, j.app, "am.stderr"), `msg="unregistered`)
}

// summary is the job's summary, which the ApplicationMaster prints once
// it has unregistered, its peak memory last.
func (j *faultJob) summary() string {
	j.t.Helper()
	return readLogUntil(j.t, amFilePath(j.t, j.c, j.app, "am.stdout"), "peak resident memory")
}

// amSlot is the NodeManager (its index, as the fault controls number
// them) running the job's ApplicationMaster: its container's log
// directory is under that NodeManager's, named ...-logDir-nm-I_0/.
func (j *faultJob) amSlot() int {
	j.t.Helper()
	return nodeManagerOf(j.t, envValue(environ(amProcess(j.t, j.app)), "LOG_DIRS"))
}

// processesOn lists application app's processes on NodeManager slot:
// its executors (their containers' LOG_DIRS are under the NodeManager's)
// and whatever runs in their containers (guards, tasks: CONTAINER_ID).
func processesOn(app string, slot int) []int {
	procs := applicationProcesses(app)
	containers := map[string]bool{}
	for _, pid := range procs {
		env := environ(pid)
		if strings.Contains(envValue(env, "LOG_DIRS"), "-logDir-nm-"+strconv.Itoa(slot)+"_") {
			containers[envValue(env, "CONTAINER_ID")] = true
		}
	}
	var on []int
	for _, pid := range procs {
		if containers[envValue(environ(pid), "CONTAINER_ID")] {
			on = append(on, pid)
		}
	}
	return on
}

// watchGone watches pids from now on; the function it returns waits for
// them all to be gone and says when they were (within 10ms), failing t
// if any is alive after within.
func watchGone(t *testing.T, pids []int, within time.Duration) func() time.Time {
	done := make(chan time.Time, 1)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for tick := time.NewTicker(10 * time.Millisecond); ; {
			if !slices.ContainsFunc(pids, alive) {
				done <- time.Now()
				return
			}
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()
	return func() time.Time {
		t.Helper()
		select {
		case at := <-done:
			return at
		case <-time.After(within):
			var left []string
			for _, pid := range pids {
				if alive(pid) {
					left = append(left, cmdline(pid))
				}
			}
			t.Fatalf("processes alive %v after: %q", within, left)
			return time.Time{}
		}
	}
}

// nmDir finds the NodeManager (its slot, from 0) in a path under one of
// its local or log directories: MiniYARNCluster names them
// NAME-localDir-nm-I_J and NAME-logDir-nm-I_J, and start-nm's
// NodeManager takes its slot's.
var nmDir = regexp.MustCompile(`-(?:local|log)Dir-nm-(\d+)_\d+/`)

// nodeManagerOf is the slot of the NodeManager whose directory path is
// under.
func nodeManagerOf(t *testing.T, path string) int {
	t.Helper()
	m := nmDir.FindStringSubmatch(path)
	if m == nil {
		t.Fatalf("%s is under no NodeManager's directory", path)
	}
	i, _ := strconv.Atoi(m[1])
	return i
}

// replaceNodeManager starts a new NodeManager in slot i once the one
// decommissioned there has shut down, so that the cluster has its nodes
// back.
func replaceNodeManager(t *testing.T, c *testcluster.Cluster, i int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
		out, err := c.Control("start-nm", strconv.Itoa(i))
		if err == nil {
			t.Logf("minicluster.sh start-nm: %s", out)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("NodeManager %d never stopped after its decommissioning, to be replaced: %v", i, err)
		}
	}
}
