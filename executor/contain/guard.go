package contain

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// guardArg0 is argv[0] of a guard process: how MaybeGuard knows it is one,
// and what ps shows.
const guardArg0 = "spindle-guard"

// controlFD is the guard's end of the control socket.
const controlFD = 3

// killDeadline bounds how long a guard keeps killing a tree that will not
// die (processes in uninterruptible sleep) before it gives up and reports.
const killDeadline = 5 * time.Second

// MaybeGuard runs the guard and exits when this process was started as one
// (by Start); in any other process it returns at once. Call it first thing
// in main, and in TestMain of test binaries that start contained processes.
func MaybeGuard() {
	if len(os.Args) == 0 || os.Args[0] != guardArg0 {
		return
	}
	os.Exit(runGuard())
}

// guard is one guard process's state.
type guard struct {
	ctl    *os.File
	leader int
	grace  time.Duration

	outputs  []*tailFile // the distinct output files
	copies   sync.WaitGroup
	stdout   *tailFile
	stderr   *tailFile
	stopping bool // SIGTERM sent; SIGKILL follows after grace
}

func runGuard() int {
	// The guard mostly waits; one thread of Go code is plenty.
	runtime.GOMAXPROCS(1)
	setName(guardArg0)
	syscall.CloseOnExec(controlFD) // the guarded process must not hold it
	g := &guard{ctl: os.NewFile(controlFD, "control")}
	ctl := bufio.NewReader(g.ctl)
	var req request
	if err := readLine(ctl, &req); err != nil {
		// The caller is gone or broken: nothing was started.
		fmt.Fprintf(os.Stderr, "%s: reading the request: %v\n", guardArg0, err)
		return 2
	}
	// Before starting anything: every orphan of the tree must come here.
	if err := setChildSubreaper(); err != nil {
		writeLine(g.ctl, report{Failed: err.Error()})
		return 2
	}
	g.grace = time.Duration(req.GraceMS) * time.Millisecond
	if g.grace <= 0 {
		g.grace = DefaultGrace
	}
	children := make(chan os.Signal, 16)
	signal.Notify(children, syscall.SIGCHLD)
	// Asked to stop by a signal rather than the socket (pkill, say): the
	// same as a stop command.
	terms := make(chan os.Signal, 4)
	signal.Notify(terms, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	if err := g.start(req); err != nil {
		g.closeOutputs()
		writeLine(g.ctl, report{Failed: err.Error()})
		return 0
	}
	writeLine(g.ctl, report{Started: g.leader})

	commands := make(chan command)
	gone := make(chan struct{})
	go func() {
		for {
			var c command
			if err := readLine(ctl, &c); err != nil {
				close(gone)
				return
			}
			commands <- c
		}
	}()

	var graceEnd <-chan time.Time
	callerGone := false
	var status syscall.WaitStatus
	for exited := false; !exited; {
		select {
		case <-children:
			status, exited = g.reap()
		case c := <-commands:
			if c.Stop {
				graceEnd = g.stop(graceEnd)
			}
		case <-terms:
			graceEnd = g.stop(graceEnd)
		case <-graceEnd:
			signalTree(os.Getpid(), syscall.SIGKILL)
		case <-gone:
			// The caller died without asking: nobody waits for a
			// graceful end.
			callerGone = true
			gone = nil
			signalTree(os.Getpid(), syscall.SIGKILL)
		}
	}
	// The process has ended: whatever it left running goes too.
	killTree(os.Getpid(), time.Now().Add(killDeadline))
	g.reap() // what the kill left behind
	r := report{Ended: true}
	switch {
	case status.Signaled():
		r.Signal = int(status.Signal())
		r.Code = 128 + r.Signal
	default:
		r.Code = status.ExitStatus()
	}
	r.StdoutCut, r.StderrCut, r.OutputErr = g.finishOutputs()
	if !callerGone {
		writeLine(g.ctl, r)
	}
	return 0
}

// start opens the outputs and starts the process in its own group, with
// SIGKILL as its parent-death signal: should the guard itself be killed,
// the process goes with it.
func (g *guard) start(req request) error {
	if len(req.Argv) == 0 {
		return fmt.Errorf("no command")
	}
	path := req.Argv[0]
	if lp, err := exec.LookPath(path); err != nil {
		return err
	} else {
		path = lp
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer devNull.Close()
	files := []uintptr{devNull.Fd(), os.Stdout.Fd(), os.Stderr.Fd()}
	var writeEnds []*os.File
	defer func() {
		for _, w := range writeEnds {
			w.Close() // the process holds its own copies
		}
	}()
	paths := map[string]uintptr{}
	for i, p := range []string{req.StdoutPath, req.StderrPath} {
		if p == "" {
			continue
		}
		if fd, ok := paths[p]; ok { // one file for both streams
			files[1+i] = fd
			continue
		}
		t, err := openTail(p, req.MaxOutput)
		if err != nil {
			return err
		}
		g.outputs = append(g.outputs, t)
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		writeEnds = append(writeEnds, w)
		files[1+i], paths[p] = w.Fd(), w.Fd()
		if i == 0 {
			g.stdout = t
		} else {
			g.stderr = t
		}
		g.copies.Add(1)
		go func() {
			defer g.copies.Done()
			io.Copy(t, r)
			r.Close()
		}()
	}
	pid, err := syscall.ForkExec(path, req.Argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: files,
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return fmt.Errorf("fork/exec %s: %w", path, err)
	}
	g.leader = pid
	return nil
}

// stop asks the whole tree to end: SIGTERM to every process in it, the
// process's group included (a child it started a moment ago may not be in
// /proc's listing yet). It returns the grace timer, started once.
func (g *guard) stop(graceEnd <-chan time.Time) <-chan time.Time {
	syscall.Kill(-g.leader, syscall.SIGTERM)
	signalTree(os.Getpid(), syscall.SIGTERM)
	if g.stopping {
		return graceEnd
	}
	g.stopping = true
	return time.After(g.grace)
}

// reap collects every child that has exited: the process, and orphans of
// its tree re-parented here. It reports the process's status once it has
// exited.
func (g *guard) reap() (status syscall.WaitStatus, exited bool) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			return status, exited
		}
		if pid == g.leader {
			status, exited = ws, true
		}
	}
}

// outputDrain bounds the wait for the output pipes to reach end-of-file
// once the tree is dead: only a descriptor handed outside the tree could
// hold them open longer.
const outputDrain = 2 * time.Second

// finishOutputs waits for the output to be copied and closes the files.
func (g *guard) finishOutputs() (stdoutCut, stderrCut int64, problem string) {
	done := make(chan struct{})
	go func() { g.copies.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(outputDrain):
		problem = "output still open after the process tree ended; the rest is lost"
	}
	for _, t := range g.outputs {
		cut, err := t.Close()
		if err != nil && problem == "" {
			problem = fmt.Sprintf("writing %s: %v", t.path, err)
		}
		if t == g.stdout {
			stdoutCut = cut
		}
		if t == g.stderr {
			stderrCut = cut
		}
	}
	return stdoutCut, stderrCut, problem
}

// closeOutputs closes the files opened before a failed start.
func (g *guard) closeOutputs() {
	for _, t := range g.outputs {
		t.Close()
	}
}
