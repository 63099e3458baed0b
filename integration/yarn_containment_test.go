package integration

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// On YARN too, whatever a task starts is gone within 5 s of the task's
// attempt ending, of its executor or the ApplicationMaster being killed
// outright, of `spindle kill` (the NodeManager's SIGTERM, then SIGKILL, to
// each container's process group), and of the submitter's interruption.

// submitHolding submits n holding tasks (see holdingSpec) without
// following them, and returns the application id once every task's
// escapees have started.
func submitHolding(t *testing.T, c *testcluster.Cluster, dir string, n int, args ...string) (string, []int) {
	t.Helper()
	o, err := spindleOn(t, c, append(append(append([]string{}, yarnArgs...), "--no-wait"), append(args, holdingSpec(t, dir, n, true))...)...)
	m := submittedID.FindStringSubmatch(o)
	if err != nil || m == nil {
		t.Fatalf("submit --no-wait: %v\n%s", err, o)
	}
	// Killed, and gone, before the test directory its tasks write to is
	// removed.
	t.Cleanup(func() {
		spindleOn(t, c, "kill", m[1])
		for deadline := time.Now().Add(10 * time.Second); len(applicationProcesses(m[1])) > 0 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
	})
	return m[1], escapeePids(t, dir, 2*n, 2*time.Minute)
}

func TestYarnAttemptEndEndsWhatItStarted(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-leftovers
stages:
  - name: s
    tasks: 4
    command: "%s exit 0"
`, escapees(dir)))
	o, err := spindleOn(t, c, append(yarnArgs, spec)...)
	ended := time.Now()
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	goneWithin(t, escapeePids(t, dir, 8, time.Second), ended, containLimit, "after the attempts ended")
}

func TestYarnKilledExecutorEndsItsTasksTrees(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	_, pids := submitHolding(t, c, dir, 4)
	id, executor, mine := anExecutor(t, dir, pids)
	killed := time.Now()
	syscall.Kill(executor, syscall.SIGKILL)
	goneWithin(t, mine, killed, containLimit, "after executor "+id+" was killed")
}

func TestYarnKilledApplicationMasterEndsEverything(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	// One attempt: a second AM would start the tasks again.
	app, pids := submitHolding(t, c, dir, 4, "--conf", "spindle.yarn.maxAppAttempts=1")
	am := amProcess(t, app)
	killed := time.Now()
	syscall.Kill(am, syscall.SIGKILL)
	goneWithin(t, pids, killed, containLimit, "after the ApplicationMaster was killed")
}

// `spindle kill`: the NodeManagers signal each container's process group
// (SIGTERM, then SIGKILL); nothing of the application is left on the
// machine, not even what its tasks started outside their groups.
func TestYarnKillLeavesNoProcessOfTheApplication(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	app, pids := submitHolding(t, c, dir, 4)
	if o, err := spindleOn(t, c, "kill", app); err != nil || !strings.Contains(o, "KILLED") {
		t.Fatalf("spindle kill: %v\n%s", err, o)
	}
	killed := time.Now()
	goneWithin(t, pids, killed, containLimit, "after spindle kill")
	for time.Since(killed) < containLimit && len(applicationProcesses(app)) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	if left := applicationProcesses(app); len(left) > 0 {
		var what []string
		for _, pid := range left {
			what = append(what, fmt.Sprintf("%d %q", pid, cmdline(pid)))
		}
		t.Fatalf("%v after spindle kill, processes of %s: %s", containLimit, app, strings.Join(what, "; "))
	}
	waitContainers(t, c, 0, 0, 30*time.Second, "the RM after the application ended")
}

// Interrupting a submitter that follows its application kills it.
func TestYarnInterruptedSubmitterKillsTheApplication(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	cmd, out := startOn(t, c, append(yarnArgs, holdingSpec(t, dir, 4, true))...)
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pids := escapeePids(t, dir, 8, 2*time.Minute)
	interrupted := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	goneWithin(t, pids, interrupted, containLimit, "after the submitter was interrupted")
	if err := cmd.Wait(); err == nil || !strings.Contains(out.String(), "interrupted") || !strings.Contains(out.String(), "KILLED") {
		t.Errorf("interrupted submit: %v, want it to kill the application and say so\n%s", err, out.String())
	}
}
