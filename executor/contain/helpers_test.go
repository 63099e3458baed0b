package contain

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/internal/procstat"
)

func TestMain(m *testing.M) {
	MaybeGuard()
	if os.Getenv(callerEnv) != "" {
		os.Exit(runCaller())
	}
	os.Exit(m.Run())
}

// escapees is a shell script that starts the two kinds of grandchild a
// process group cannot hold: one that ignores SIGTERM, and one that left
// the group with setsid. Each writes its pid to the file pids, then
// sleeps. Should they outlive the test, its cleanup kills them.
func escapees(t *testing.T, pids string) string {
	t.Cleanup(func() {
		b, _ := os.ReadFile(pids)
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return `touch ` + pids + `
sh -c 'trap "" TERM INT HUP; echo $$ >> ` + pids + `; exec sleep 100001' &
setsid sh -c 'echo $$ >> ` + pids + `; exec sleep 100002' &
`
}

// wait waits for p's result, failing the test (and stopping p) if it takes
// longer than limit.
func wait(t *testing.T, p *Process, limit time.Duration) Result {
	t.Helper()
	select {
	case <-p.Done():
		return p.Wait()
	case <-time.After(limit):
		go p.Stop()
		t.Fatalf("the process did not end within %v", limit)
		return Result{}
	}
}

// waitPids waits for n pids in the file and returns them.
func waitPids(t *testing.T, path string, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d pids in %s", len(pids), n, path)
		}
	}
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	st, err := procstat.Read(pid)
	return err == nil && st.State != 'Z'
}

// waitGone fails unless every pid is dead within limit.
func waitGone(t *testing.T, pids []int, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(10 * time.Millisecond) {
		var left []int
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v still running %v later", left, limit)
		}
	}
}

// tempPath is a fresh path in a test directory.
func tempPath(t *testing.T, name string) string {
	return filepath.Join(t.TempDir(), name)
}

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

// env is a minimal environment for test processes.
func env() []string { return []string{"PATH=" + os.Getenv("PATH")} }
