package executor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Result is how a task process ended.
type Result struct {
	// ExitCode is the exit status; a process ended by a signal gets
	// 128+signal, the shell's convention (SIGKILL: 137, SIGTERM: 143), so
	// it is non-zero and reads the same as `$?` would. -1 when Err is set.
	ExitCode int
	// Signal names the signal that ended it ("SIGKILL"), empty otherwise.
	Signal string
	// Err is set only when the exit status could not be learnt.
	Err error
	// Start and End bound the process's life as the executor saw it.
	Start, End time.Time
}

// exitStatus turns what exec.Cmd.Wait returned into a Result's fields.
func exitStatus(state *os.ProcessState, err error) (code int, signal string, _ error) {
	var exitErr *exec.ExitError
	if state == nil || (err != nil && !errors.As(err, &exitErr)) {
		if err == nil {
			err = errors.New("no exit status")
		}
		return -1, "", err
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return 128 + int(ws.Signal()), signalName(ws.Signal()), nil
	}
	return state.ExitCode(), "", nil
}

// signalNames are the signals a task is likely to die of.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
	syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
	syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
	syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ", syscall.SIGSYS: "SIGSYS",
}

func signalName(s syscall.Signal) string {
	if name, ok := signalNames[s]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}
