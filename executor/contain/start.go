package contain

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// A Pool keeps guards for reuse: a guard that has ended one process's
// tree runs the next, so that a process costs a fork and an exec of its
// own, not also those of a guard (this binary, which takes milliseconds to
// start). Its methods are safe for concurrent use. The zero Pool is ready;
// a nil *Pool starts a fresh guard for each process.
type Pool struct {
	mu     sync.Mutex
	idle   []*guardProc
	closed bool
}

// guardProc is the caller's end of one guard.
type guardProc struct {
	cmd     *exec.Cmd
	ctl     *os.File // the caller's end of the control socket
	reports *bufio.Reader
}

// Start runs spec's process under a guard (package doc) and returns once
// it is running. Start on a nil Pool, and any spec with a Stdout or Stderr
// writer, get a guard of their own, which ends with the process.
func Start(spec Spec) (*Process, error) { return (*Pool)(nil).Start(spec) }

// Start runs spec's process under one of the pool's guards, or a new one,
// and returns once it is running. A process that cannot be started (no
// such command, say) is an error carrying the operating system's, such as
// `exec: "nope": executable file not found in $PATH`; nothing is left
// running then.
func (pl *Pool) Start(spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("no command")
	}
	grace := spec.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	// A guard's own stdout and stderr are fixed when it starts: output
	// to writers needs a guard of its own.
	pooled := pl != nil && spec.Stdout == nil && spec.Stderr == nil
	req := message{Run: &request{Argv: spec.Argv, Env: append([]string{}, spec.Env...), Dir: spec.Dir,
		StdoutPath: spec.StdoutPath, StderrPath: spec.StderrPath, MaxOutput: spec.MaxOutput, GraceMS: grace.Milliseconds()}}
	if pooled {
		// An idle guard may have died meanwhile (killed by hand, or by the
		// OOM killer): that is no reason for the process to fail.
		for g := pl.take(); g != nil; g = pl.take() {
			if p, err := startOn(g, pl, true, grace, req); err == nil || !errors.Is(err, errGuard) {
				return p, err
			}
		}
	}
	g, err := newGuard(spec.Stdout, spec.Stderr, spec.Name)
	if err != nil {
		return nil, err
	}
	return startOn(g, pl, pooled, grace, req)
}

// errGuard marks a guard that did not answer as it should: it is killed.
var errGuard = errors.New("the process guard")

// startOn has guard g start req's process.
func startOn(g *guardProc, pl *Pool, pooled bool, grace time.Duration, req message) (*Process, error) {
	p := &Process{g: g, pool: pl, pooled: pooled, grace: grace, done: make(chan struct{})}
	p.result.Start = time.Now()
	err := writeLine(g.ctl, req)
	var first report
	if err == nil {
		err = readLine(g.reports, &first)
	}
	switch {
	case err != nil:
		g.kill()
		return nil, fmt.Errorf("%w: %w", errGuard, err)
	case first.Failed != "":
		p.release(true)
		return nil, errors.New(first.Failed)
	}
	p.pid = first.Started
	go p.watch()
	return p, nil
}

// take returns an idle guard, or nil.
func (pl *Pool) take() *guardProc {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if n := len(pl.idle); n > 0 {
		g := pl.idle[n-1]
		pl.idle = pl.idle[:n-1]
		return g
	}
	return nil
}

// put keeps an idle guard, or ends it once the pool is closed.
func (pl *Pool) put(g *guardProc) {
	pl.mu.Lock()
	if !pl.closed {
		pl.idle = append(pl.idle, g)
		g = nil
	}
	pl.mu.Unlock()
	if g != nil {
		g.end()
	}
}

// Close ends the idle guards and returns once they are gone; guards busy
// with a process end with it.
func (pl *Pool) Close() {
	pl.mu.Lock()
	idle := pl.idle
	pl.idle, pl.closed = nil, true
	pl.mu.Unlock()
	for _, g := range idle {
		g.end()
	}
}

// newGuard starts a guard: this binary again, from /proc/self/exe (this
// very binary, even if the file it was started from has since been
// replaced), in a process group of its own, with the control socket as
// its fd 3.
func newGuard(stdout, stderr io.Writer, name string) (*guardProc, error) {
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socketpair", err)
	}
	ctl, theirs := os.NewFile(uintptr(pair[0]), "control"), os.NewFile(uintptr(pair[1]), "control")
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{guardArg0, name},
		Stdout:      stdout,
		Stderr:      stderr,
		ExtraFiles:  []*os.File{theirs},
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		ctl.Close()
		return nil, fmt.Errorf("starting the process guard: %w", err)
	}
	return &guardProc{cmd: cmd, ctl: ctl, reports: bufio.NewReader(ctl)}, nil
}

// end closes the control socket, which the guard takes for the end, and
// reaps it.
func (g *guardProc) end() {
	g.ctl.Close()
	g.cmd.Wait()
}

// kill ends a guard that cannot be trusted to answer.
func (g *guardProc) kill() {
	g.cmd.Process.Kill()
	g.end()
}

// Process is a process started under its guard. Its methods are safe for
// concurrent use.
type Process struct {
	g      *guardProc
	pool   *Pool
	pooled bool
	pid    int
	grace  time.Duration
	done   chan struct{} // closed once result is set

	mu     sync.Mutex // serializes writes to the guard, and guards ended
	ended  bool       // the guard has reported the end: no more writes
	result Result
}

// guardSlack is how long Stop waits beyond the grace period for the guard
// to report before killing the guard itself.
const guardSlack = killDeadline + 3*time.Second

// Pid is the process's id (not its guard's).
func (p *Process) Pid() int { return p.pid }

// watch waits for the guard's report of the end.
func (p *Process) watch() {
	var r report
	err := readLine(p.g.reports, &r)
	end := time.Now()
	p.mu.Lock()
	p.ended = true // no Stop may write now: the guard may run another
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
		p.result.ExitCode, p.result.Err = -1, fmt.Errorf("the process guard ended without an exit status: %w", err)
	}
	p.mu.Unlock()
	p.release(err == nil && r.Ended)
	close(p.done)
}

// release gives the guard back to the pool if it is sound and pooled, or
// ends it; either way its output (to writers) is complete after.
func (p *Process) release(sound bool) {
	switch {
	case sound && p.pooled:
		p.pool.put(p.g)
	case sound:
		p.g.end()
	default:
		p.g.kill()
	}
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

// Signal sends sig to every process of the tree (its group, and what
// has left the group) now, and nothing after: the caller decides what
// follows, as an executor draining a task does (a checkpoint's SIGTERM,
// its own SIGKILL after a grace period of its own). Once signalled, what
// the process leaves running when it exits is not killed at once: the
// process is reported ended when its whole tree has, by itself, or by
// the caller's next Signal or Stop (or the caller's death). A shell
// running a command dies of a SIGTERM at once; the command it runs must
// be let write its checkpoint. Sending it after the process ended does
// no harm.
func (p *Process) Signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		writeLine(p.g.ctl, message{Signal: int(sig)})
	}
}

// Stop asks the process tree to end (SIGTERM, then SIGKILL after the
// grace period) and returns once it has. A guard that does not answer in
// time is killed itself. Calling it again, or after the process ended, does
// no harm.
func (p *Process) Stop() {
	p.mu.Lock()
	sent := !p.ended && writeLine(p.g.ctl, message{Stop: true}) == nil
	p.mu.Unlock()
	timer := time.NewTimer(p.grace + guardSlack)
	defer timer.Stop()
	select {
	case <-p.done:
		return
	case <-timer.C:
	}
	if sent {
		p.g.cmd.Process.Kill() // watch then sees the socket close
	}
	<-p.done
}
