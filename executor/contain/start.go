package contain

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Process is a process started under its guard. Its methods are safe for
// concurrent use.
type Process struct {
	cmd   *exec.Cmd // the guard
	ctl   *os.File  // the caller's end of the control socket
	pid   int
	grace time.Duration
	done  chan struct{} // closed once result is set and the guard reaped

	mu     sync.Mutex // serializes writes to ctl
	result Result
}

// guardSlack is how long Stop waits beyond the grace period for the guard
// to report before killing the guard itself.
const guardSlack = killDeadline + 3*time.Second

// Start starts spec's process under a guard and returns once it is
// running. A process that cannot be started (no such command, say) is an
// error carrying the operating system's, such as `exec: "nope":
// executable file not found in $PATH`; nothing is left running then.
func Start(spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("no command")
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socketpair", err)
	}
	ctl, theirs := os.NewFile(uintptr(pair[0]), "control"), os.NewFile(uintptr(pair[1]), "control")
	grace := spec.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	// /proc/self/exe is this very binary, even if the file it was started
	// from has since been replaced (a rebuild while a job runs).
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{guardArg0, spec.Name},
		Env:         append([]string{}, spec.Env...), // nil would mean the caller's
		Dir:         spec.Dir,
		Stdout:      spec.Stdout,
		Stderr:      spec.Stderr,
		ExtraFiles:  []*os.File{theirs}, // fd 3
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	start := time.Now()
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		ctl.Close()
		return nil, fmt.Errorf("starting the process guard: %w", err)
	}
	p := &Process{cmd: cmd, ctl: ctl, grace: grace, done: make(chan struct{})}
	p.result.Start = start
	reports := bufio.NewReader(ctl)
	err = writeLine(ctl, request{Argv: spec.Argv, StdoutPath: spec.StdoutPath, StderrPath: spec.StderrPath,
		MaxOutput: spec.MaxOutput, GraceMS: grace.Milliseconds()})
	var first report
	if err == nil {
		err = readLine(reports, &first)
	}
	switch {
	case err != nil:
		cmd.Process.Kill()
		cmd.Wait()
		ctl.Close()
		return nil, fmt.Errorf("the process guard: %w", err)
	case first.Failed != "":
		cmd.Wait()
		ctl.Close()
		return nil, errors.New(first.Failed)
	}
	p.pid = first.Started
	go p.watch(reports)
	return p, nil
}

// Pid is the process's id (not its guard's).
func (p *Process) Pid() int { return p.pid }

// watch waits for the guard's last report, then reaps the guard.
func (p *Process) watch(reports *bufio.Reader) {
	var r report
	err := readLine(reports, &r)
	end := time.Now()
	werr := p.cmd.Wait()
	p.ctl.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.result.End = end
	switch {
	case err == nil && r.Ended:
		p.result.ExitCode, p.result.StdoutCut, p.result.StderrCut, p.result.OutputErr = r.Code, r.StdoutCut, r.StderrCut, r.OutputErr
		if r.Signal != 0 {
			p.result.Signal = SignalName(syscall.Signal(r.Signal))
		}
	case err == nil:
		p.result.ExitCode, p.result.Err = -1, errors.New("the process guard sent no exit status")
	default:
		p.result.ExitCode, p.result.Err = -1, fmt.Errorf("the process guard ended without an exit status (%v): %w", werr, err)
	}
	close(p.done)
}

// Wait blocks until the process has ended, its whole tree with it, and
// returns how. It may be called any number of times.
func (p *Process) Wait() Result {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.result
}

// Done is closed when the process has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stop asks the process tree to end (SIGTERM, then SIGKILL after the
// grace period) and returns once it has. A guard that does not answer in
// time is killed itself. Calling it again, or after the process ended, does
// no harm.
func (p *Process) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	p.mu.Lock()
	err := writeLine(p.ctl, command{Stop: true})
	p.mu.Unlock()
	timer := time.NewTimer(p.grace + guardSlack)
	defer timer.Stop()
	if err == nil {
		select {
		case <-p.done:
			return
		case <-timer.C:
		}
	}
	p.cmd.Process.Kill()
	<-p.done
}
