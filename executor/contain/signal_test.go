package contain

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// Signal sends its signal to the whole tree, a setsid grandchild
// included, and nothing after it: a process that ignores SIGTERM lives on
// past any grace period until the caller's own SIGKILL, which ends the
// tree. After the end, Signal is harmless.
func TestSignalReachesTheTreeAndNothingFollows(t *testing.T) {
	dir := t.TempDir()
	pids, marker := dir+"/pids", dir+"/terminated"
	grandchild := `trap 'echo TERM > ` + marker + `' TERM; echo \$\$ > ` + pids + `; while :; do sleep 0.05; done`
	// The parent ignores SIGTERM once the grandchild has started: a shell
	// cannot trap a signal ignored when it started.
	parent := `setsid sh -c "` + grandchild + `" & trap '' TERM; while :; do sleep 0.05; done`
	p, err := Start(Spec{Argv: sh(parent), Env: env(), Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	gc := waitPids(t, pids, 1)[0]
	p.Signal(syscall.SIGTERM)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(marker); string(b) == "TERM\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the setsid grandchild's TERM trap never ran: Signal missed it")
		}
	}
	// Ten times the spec's grace: no SIGKILL came after the SIGTERM.
	select {
	case <-p.Done():
		t.Fatalf("the process ended after a SIGTERM it ignores: %+v", p.Wait())
	case <-time.After(time.Second):
	}
	p.Signal(syscall.SIGKILL)
	if res := wait(t, p, 10*time.Second); res.ExitCode != 137 || res.Signal != "SIGKILL" {
		t.Errorf("exit %d %q, want 137 SIGKILL", res.ExitCode, res.Signal)
	}
	waitGone(t, []int{gc}, 5*time.Second)
	p.Signal(syscall.SIGTERM) // after the end: harmless
}
