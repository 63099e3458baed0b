package contain

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func run(t *testing.T, spec Spec) Result {
	t.Helper()
	if spec.Env == nil {
		spec.Env = env()
	}
	p, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	return wait(t, p, 10*time.Second)
}

func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		script string
		code   int
		signal string
	}{
		{"exit 0", 0, ""},
		{"exit 3", 3, ""},
		{"kill -KILL $$", 137, "SIGKILL"},
		{"kill -TERM $$", 143, "SIGTERM"},
	} {
		res := run(t, Spec{Argv: sh(c.script)})
		if res.ExitCode != c.code || res.Signal != c.signal || res.Err != nil {
			t.Errorf("%q: exit %d signal %q err %v; want %d %q", c.script, res.ExitCode, res.Signal, res.Err, c.code, c.signal)
		}
		if res.Start.IsZero() || res.End.Before(res.Start) {
			t.Errorf("%q: start %v end %v", c.script, res.Start, res.End)
		}
	}
}

func TestStartErrorsLeaveNothing(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"spindle-no-such-command"}, `exec: "spindle-no-such-command": executable file not found in $PATH`},
		{[]string{"/nonexistent/bin/x"}, "/nonexistent/bin/x"},
		{nil, "no command"},
	} {
		_, err := Start(Spec{Argv: c.argv, Env: env()})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.argv, err, c.want)
		}
	}
	// The lookup uses the process's own PATH, not the caller's.
	_, err := Start(Spec{Argv: []string{"sh"}, Env: []string{"PATH=/nonexistent"}})
	if err == nil {
		t.Error("sh found with PATH=/nonexistent")
	}
}

// When the process exits, whatever it started goes with it: a child that
// ignores SIGTERM, and one that left its process group with setsid.
func TestProcessEndsItsTreeEnds(t *testing.T) {
	pids := tempPath(t, "pids")
	p, err := Start(Spec{Argv: sh(escapees(t, pids) + "while [ $(wc -l < " + pids + ") -lt 2 ]; do sleep 0.01; done"), Env: env()})
	if err != nil {
		t.Fatal(err)
	}
	res := wait(t, p, 10*time.Second)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d", res.ExitCode)
	}
	got := waitPids(t, pids, 2)
	// Wait returns only once the tree is gone: no waiting here.
	for _, pid := range got {
		if alive(pid) {
			t.Errorf("pid %d outlived its process", pid)
		}
	}
}

// Stop ends the whole tree: SIGTERM first, then SIGKILL after the grace
// period for what ignored it.
func TestStopEndsTheTree(t *testing.T) {
	pids := tempPath(t, "pids")
	p, err := Start(Spec{Argv: sh(escapees(t, pids) + "wait"), Env: env(), Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got := waitPids(t, pids, 2)
	start := time.Now()
	p.Stop()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Stop took %v", d)
	}
	for _, pid := range got {
		if alive(pid) {
			t.Errorf("pid %d outlived Stop", pid)
		}
	}
	if res := p.Wait(); res.ExitCode != 143 || res.Signal != "SIGTERM" {
		t.Errorf("stopped shell: exit %d %q, want 143 SIGTERM", res.ExitCode, res.Signal)
	}
	p.Stop() // again: harmless
}

// Stop's SIGTERM reaches a grandchild that left the process group with
// setsid while its parent still lives: a signal to the group would miss
// it, and the SIGKILL after the grace period would end it without its
// cleanup. The grandchild traps TERM and writes a file; its parent waits
// for that file before it exits, so nothing but the SIGTERM can let the
// process end before the grace period's SIGKILL.
func TestStopTermsASetsidGrandchildFirst(t *testing.T) {
	dir := t.TempDir()
	pids, marker := dir+"/pids", dir+"/terminated"
	grandchild := `trap 'echo TERM > ` + marker + `; exit 0' TERM; echo \$\$ > ` + pids + `; sleep 100003 & wait`
	parent := `trap 'while [ ! -s ` + marker + ` ]; do sleep 0.01; done; exit 7' TERM
setsid sh -c "` + grandchild + `" &
sleep 100004 & wait`
	p, err := Start(Spec{Argv: sh(parent), Env: env(), Grace: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	gc := waitPids(t, pids, 1)[0]
	if sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(gc), 0, 0); errno != 0 || int(sid) != gc {
		t.Fatalf("the grandchild %d is in session %d: setsid did not take", gc, sid)
	}
	p.Stop()
	res := wait(t, p, 10*time.Second)
	if b, _ := os.ReadFile(marker); string(b) != "TERM\n" {
		t.Errorf("the setsid grandchild's TERM trap did not run (%q): it got no SIGTERM", b)
	}
	if res.ExitCode != 7 {
		t.Errorf("exit %d %s, want the parent's trap's 7 (137: it waited for the SIGKILL)", res.ExitCode, res.Signal)
	}
	waitGone(t, []int{gc}, 5*time.Second)
}

// A process that exits on SIGTERM gets its grace period and no SIGKILL.
func TestStopIsGracefulFirst(t *testing.T) {
	marker := tempPath(t, "cleaned")
	p, err := Start(Spec{Argv: sh("trap 'echo bye > " + marker + "; exit 7' TERM; echo ready; while :; do sleep 0.05; done"),
		Env: env(), Grace: 5 * time.Second, Stdout: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	p.Stop()
	if res := p.Wait(); res.ExitCode != 7 {
		t.Errorf("exit %d, want the trap's 7", res.ExitCode)
	}
	if b, _ := os.ReadFile(marker); string(b) != "bye\n" {
		t.Errorf("the TERM trap did not run: %q", b)
	}
}

// Output that goes to a writer reaches it, even when a background child
// held the pipe: the child is ended and the output read to its end.
func TestWriterOutputWithABackgroundChild(t *testing.T) {
	var out bytes.Buffer
	pids := tempPath(t, "pids")
	res := run(t, Spec{Argv: sh(escapees(t, pids) + `echo '{"name":"gpu"}'; while [ $(wc -l < ` + pids + `) -lt 2 ]; do sleep 0.01; done`), Stdout: &out})
	if res.ExitCode != 0 || out.String() != "{\"name\":\"gpu\"}\n" {
		t.Errorf("exit %d, output %q", res.ExitCode, out.String())
	}
}
