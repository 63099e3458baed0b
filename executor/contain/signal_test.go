package contain

import (
	"os"
	"slices"
	"strconv"
	"strings"
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

// Signalled, the tree outlives its process: a shell running a command
// dies of the SIGTERM at once, and the command it ran (a training script
// writing its checkpoint) ends in its own time; the process is reported
// ended once it has. What ignores the SIGTERM lives on until the caller's
// SIGKILL.
func TestSignalledTreeOutlivesItsShell(t *testing.T) {
	dir := t.TempDir()
	marker := dir + "/checkpoint"
	child := dir + "/child.sh"
	body := "#!/bin/sh\ntrap 'sleep 0.3; echo saved > " + marker + "; exit 0' TERM\ntouch " + dir + "/ready\nwhile :; do sleep 0.05; done\n"
	if err := os.WriteFile(child, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stubborn := range []bool{false, true} {
		os.Remove(dir + "/ready")
		os.Remove(dir + "/stubborn")
		script := child
		ready := []string{dir + "/ready"}
		if stubborn {
			// It says so once it ignores SIGTERM: signalled before, it
			// would die of it.
			script = "sh -c \"trap '' TERM; touch " + dir + "/stubborn; while :; do sleep 0.05; done\" & " + child
			ready = append(ready, dir+"/stubborn")
		}
		p, err := Start(Spec{Argv: sh(script), Env: env(), Grace: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ready {
			for _, err := os.Stat(f); err != nil; _, err = os.Stat(f) {
				time.Sleep(10 * time.Millisecond)
			}
		}
		p.Signal(syscall.SIGTERM)
		if stubborn {
			select {
			case <-p.Done():
				t.Fatalf("ended with a process ignoring SIGTERM still running: %+v", p.Wait())
			case <-time.After(time.Second):
			}
			p.Signal(syscall.SIGKILL)
		}
		res := wait(t, p, 10*time.Second)
		if b, _ := os.ReadFile(marker); string(b) != "saved\n" {
			t.Errorf("stubborn %v: the command's checkpoint: %q; it was killed as its shell died", stubborn, b)
		}
		if res.ExitCode != 143 {
			t.Errorf("stubborn %v: exit %d %q, want the shell's 143 (SIGTERM)", stubborn, res.ExitCode, res.Signal)
		}
		os.Remove(marker)
	}
}

// Each process of the tree gets the signal once, though the group is
// signalled and the tree walked: a trap that ran twice would write its
// checkpoint twice. A setsid grandchild, outside the group, gets it too.
func TestSignalReachesEachProcessOnce(t *testing.T) {
	dir := t.TempDir()
	count := `trap 'echo $$ >> ` + dir + `/terms' TERM; echo $$ >> ` + dir + `/pids; while :; do sleep 0.05; done`
	p, err := Start(Spec{Argv: sh(`setsid sh -c "` + count + `" & sh -c "` + count + `" & ` + count), Env: env()})
	if err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, dir+"/pids", 3)
	p.Signal(syscall.SIGTERM)
	time.Sleep(500 * time.Millisecond) // any second SIGTERM has come by now
	p.Signal(syscall.SIGKILL)
	wait(t, p, 10*time.Second)
	b, _ := os.ReadFile(dir + "/terms")
	terms := strings.Fields(string(b))
	slices.Sort(terms)
	var want []string
	for _, pid := range pids {
		want = append(want, strconv.Itoa(pid))
	}
	slices.Sort(want)
	if !slices.Equal(terms, want) {
		t.Errorf("SIGTERM trapped by %v, want each of %v once", terms, want)
	}
}
