package contain

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callerEnv makes the test binary a caller: it starts the script in
// $CONTAIN_TEST_SCRIPT contained, prints "started", and waits to be
// killed. Tests kill it to see what its death does to the tree.
const callerEnv = "CONTAIN_TEST_CALLER"

func runCaller() int {
	p, err := Start(Spec{Argv: sh(os.Getenv("CONTAIN_TEST_SCRIPT")), Env: env()})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("started", p.Pid())
	p.Wait()
	return 0
}

// startCaller runs the test binary as a caller of script in a process
// group of its own, and returns once its process is running.
func startCaller(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), callerEnv+"=1", "CONTAIN_TEST_SCRIPT="+script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "started") {
		t.Fatalf("caller: %q", buf[:n])
	}
	return cmd
}

// A caller killed outright (SIGKILL: it can do nothing) takes the whole
// tree with it: its guard reads end-of-file on the control socket.
func TestCallerKilledTheTreeGoes(t *testing.T) {
	pids := tempPath(t, "pids")
	cmd := startCaller(t, escapees(t, pids)+"wait")
	got := waitPids(t, pids, 2)
	cmd.Process.Signal(syscall.SIGKILL)
	waitGone(t, got, 5*time.Second)
}

// YARN's NodeManager kills a container by signalling its process group,
// SIGTERM then SIGKILL. The guard is outside that group, outlives the
// caller and ends the tree.
func TestCallersGroupKilledTheTreeGoes(t *testing.T) {
	pids := tempPath(t, "pids")
	cmd := startCaller(t, escapees(t, pids)+"echo $$ >> "+pids+"; wait")
	got := waitPids(t, pids, 3)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	time.Sleep(250 * time.Millisecond) // yarn.nodemanager.sleep-delay-before-sigkill.ms
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	waitGone(t, got, 5*time.Second)
}
