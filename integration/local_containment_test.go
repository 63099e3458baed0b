package integration

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests hold local mode to its promise: whatever a task starts — a
// grandchild that ignores SIGTERM, one that left the task's process group
// with setsid — is gone within 5 s of the task's attempt ending, of its
// being killed, of its executor, driver or submitter dying.

// startLocal starts `spindle submit` in local mode without waiting for it.
func startLocal(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd, buf := startSpindle(t, append(os.Environ(), "TMPDIR="+t.TempDir()), append(localArgs, args...)...)
	// A submitter still running is interrupted, not killed: it returns
	// once its tasks are gone, so none writes to a test directory being
	// removed.
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		stop := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
		defer stop.Stop()
		cmd.Wait()
	})
	return cmd, buf
}

func TestLocalAttemptEndEndsWhatItStarted(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: leftovers
stages:
  - name: s
    tasks: 4
    command: "%s exit 0"
`, escapees(dir)))
	o, err := submit(t, append(localArgs, spec)...)
	ended := time.Now()
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	goneWithin(t, escapeePids(t, dir, 8, time.Second), ended, containLimit, "after the attempts ended")
}

// A job that fails kills its other running tasks: their trees go too.
func TestLocalKilledTaskEndsWhatItStarted(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: killed
stages:
  - name: s
    tasks: 3
    maxAttempts: 1
    command: "%s if [ $SPINDLE_TASK_INDEX = 0 ]; then until [ $(cat %[2]s/pids-* | wc -l) -ge 6 ]; do sleep 0.05; done; exit 3; fi; trap '' TERM; while :; do sleep 1; done"
`, escapees(dir), dir))
	o, err := submit(t, append(localArgs, spec)...)
	ended := time.Now()
	if err == nil || !strings.Contains(o, "failed once") {
		t.Fatalf("submit: %v, want the job to fail\n%s", err, o)
	}
	goneWithin(t, escapeePids(t, dir, 6, time.Second), ended, containLimit, "after the job's other tasks were killed")
}

func TestLocalKilledExecutorEndsItsTasksTrees(t *testing.T) {
	dir := t.TempDir()
	startLocal(t, holdingSpec(t, dir, 4, true))
	pids := escapeePids(t, dir, 8, 20*time.Second)
	// Its tasks' trees go; the other executor's run on, as does the job.
	id, executor, mine := anExecutor(t, dir, pids)
	killed := time.Now()
	syscall.Kill(executor, syscall.SIGKILL)
	goneWithin(t, mine, killed, containLimit, "after executor "+id+" was killed")
}

func TestLocalKilledDriverEndsEverything(t *testing.T) {
	dir := t.TempDir()
	cmd, _ := startLocal(t, holdingSpec(t, dir, 4, true))
	pids := escapeePids(t, dir, 8, 20*time.Second)
	killed := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	goneWithin(t, pids, killed, containLimit, "after the driver was killed")
}

func TestLocalInterruptedSubmitterEndsEverything(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd, out := startLocal(t, holdingSpec(t, dir, 4, true))
			pids := escapeePids(t, dir, 8, 20*time.Second)
			signalled := time.Now()
			cmd.Process.Signal(sig)
			goneWithin(t, pids, signalled, containLimit, "after "+sig.String())
			if err := cmd.Wait(); err == nil {
				t.Errorf("interrupted submit exited 0\n%s", out.String())
			}
		})
	}
}
