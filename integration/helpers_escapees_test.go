package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helpers: escapees, the processes a task starts that its process group
// cannot hold, and what containment must do to them (local and YARN
// containment tests).

// escapees is shell for a task to start the two kinds of grandchild that a
// process group cannot hold: one that ignores SIGTERM (and SIGINT, SIGHUP),
// and one that left the group with setsid. Each appends its pid to a file
// in dir named after the task (pids-INDEX), then sleeps; the task goes on
// once both have. YAML-safe as a double-quoted scalar's content.
func escapees(dir string) string {
	pids := filepath.Join(dir, "pids-$SPINDLE_TASK_INDEX")
	return fmt.Sprintf(`touch %[1]s; sh -c 'trap \"\" TERM INT HUP; echo $$ >> %[1]s; exec sleep 100201' & setsid sh -c 'echo $$ >> %[1]s; exec sleep 100202' & until [ $(wc -l < %[1]s) -ge 2 ]; do sleep 0.02; done; `, pids)
}

// escapeePids waits until the tasks' escapees in dir number n, and
// returns their pids.
func escapeePids(t *testing.T, dir string, n int, within time.Duration) []int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "pids-*"))
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		var pids []int
		for _, file := range files {
			b, _ := os.ReadFile(file)
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, pid)
				}
			}
		}
		if len(pids) >= n {
			t.Cleanup(func() { killLeft(pids) })
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d escapees started", len(pids), n)
		}
		files, _ = filepath.Glob(filepath.Join(dir, "pids-*"))
	}
}

// killLeft kills what a failed test left behind, so one failure does not
// leave sleepers for the rest of the run.
func killLeft(pids []int) {
	for _, pid := range pids {
		if alive(pid) {
			syscallKill(pid)
		}
	}
}

// goneWithin fails the test unless every pid is dead within limit of since
// (the moment of what should end them).
func goneWithin(t *testing.T, pids []int, since time.Time, limit time.Duration, what string) {
	t.Helper()
	for {
		var left []int
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			t.Logf("%s: all %d escapees gone after %v", what, len(pids), time.Since(since).Round(time.Millisecond))
			return
		}
		if time.Since(since) > limit {
			t.Fatalf("%s: processes %v still running %v later", what, left, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// anExecutor picks the executor that runs the first escapee's task and
// returns its id, its pid (as its tasks recorded it in dir/exec-ID) and
// the escapees of its tasks.
func anExecutor(t *testing.T, dir string, pids []int) (id string, pid int, its []int) {
	t.Helper()
	id = envValue(environ(pids[0]), "SPINDLE_EXECUTOR_ID")
	b, err := os.ReadFile(filepath.Join(dir, "exec-"+id))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Sscan(string(b), &pid)
	if !strings.Contains(cmdline(pid), "executor") {
		t.Fatalf("pid %d is %q, not an executor", pid, cmdline(pid))
	}
	for _, p := range pids {
		if envValue(environ(p), "SPINDLE_EXECUTOR_ID") == id {
			its = append(its, p)
		}
	}
	return id, pid, its
}

// holdingSpec is a job of n tasks that each start escapees and then wait
// (ignoring SIGTERM themselves when stubborn), recording the pid of the
// executor that runs them (the task's guard's parent) in dir/exec-ID.
func holdingSpec(t *testing.T, dir string, n int, stubborn bool) string {
	t.Helper()
	trap := ""
	if stubborn {
		trap = `trap \"\" TERM INT HUP; `
	}
	return writeSpec(t, fmt.Sprintf(`name: holding
stages:
  - name: s
    tasks: %d
    command: "%scut -d' ' -f4 /proc/$PPID/stat > %s/exec-$SPINDLE_EXECUTOR_ID; %swhile :; do sleep 1; done"
`, n, trap, dir, escapees(dir)))
}

// containLimit is how long after what should end them (an attempt's end,
// a kill, a signal) a task's escapees may live on.
const containLimit = 5 * time.Second
