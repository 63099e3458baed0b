package contain

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A pool's guard runs processes one after another, each with its own
// environment, working directory and outputs.
func TestPoolReusesItsGuards(t *testing.T) {
	pool := &Pool{}
	defer pool.Close()
	dir := t.TempDir()
	var parents []string
	for i, v := range []string{"one", "two"} {
		out := tempPath(t, "out")
		p, err := pool.Start(Spec{Argv: sh(`echo $PPID $X $(pwd)`), Env: append(env(), "X="+v), Dir: dir, StdoutPath: out})
		if err != nil {
			t.Fatal(err)
		}
		if r := wait(t, p, 10*time.Second); r.ExitCode != 0 {
			t.Fatalf("process %d: %+v", i, r)
		}
		b, _ := os.ReadFile(out)
		f := strings.Fields(string(b))
		if len(f) != 3 || f[1] != v || f[2] != dir {
			t.Fatalf("process %d printed %q, want its parent, %s and %s", i, b, v, dir)
		}
		parents = append(parents, f[0])
	}
	if parents[0] != parents[1] {
		t.Errorf("the processes had guards %s and %s; want one guard, reused", parents[0], parents[1])
	}
}

// A Stop that comes after its process ended never reaches the next
// process the same guard runs.
func TestStopAfterTheEndLeavesTheNextProcessAlone(t *testing.T) {
	pool := &Pool{}
	defer pool.Close()
	first, err := pool.Start(Spec{Argv: []string{"true"}, Env: env()})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, first, 10*time.Second)
	first.Stop()
	second, err := pool.Start(Spec{Argv: sh("sleep 0.3; exit 4"), Env: env()})
	if err != nil {
		t.Fatal(err)
	}
	first.Stop()
	if r := wait(t, second, 10*time.Second); r.ExitCode != 4 || r.Signal != "" {
		t.Errorf("the second process: exit %d %q; want 4, not stopped", r.ExitCode, r.Signal)
	}
}

// A process that cannot start leaves its guard fit for the next.
func TestPoolGuardSurvivesAFailedStart(t *testing.T) {
	pool := &Pool{}
	defer pool.Close()
	if _, err := pool.Start(Spec{Argv: []string{"spindle-no-such-command"}, Env: env()}); err == nil {
		t.Fatal("a missing command started")
	}
	p, err := pool.Start(Spec{Argv: []string{"true"}, Env: env()})
	if err != nil {
		t.Fatal(err)
	}
	if r := wait(t, p, 10*time.Second); r.ExitCode != 0 || r.Err != nil {
		t.Errorf("after a failed start: %+v", r)
	}
}

// An idle guard that died meanwhile is replaced, not blamed on the next
// process.
func TestPoolReplacesADeadGuard(t *testing.T) {
	pool := &Pool{}
	defer pool.Close()
	out := tempPath(t, "out")
	p, err := pool.Start(Spec{Argv: sh("echo $PPID"), Env: env(), StdoutPath: out})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, p, 10*time.Second)
	b, _ := os.ReadFile(out)
	var guard int
	if _, err := fmt.Sscan(string(b), &guard); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(guard, syscall.SIGKILL)
	for alive(guard) {
		time.Sleep(5 * time.Millisecond)
	}
	p, err = pool.Start(Spec{Argv: []string{"true"}, Env: env()})
	if err != nil {
		t.Fatalf("after the idle guard died: %v", err)
	}
	if r := wait(t, p, 10*time.Second); r.ExitCode != 0 || r.Err != nil {
		t.Errorf("after the idle guard died: %+v", r)
	}
}
