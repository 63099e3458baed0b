package contain

import (
	"bufio"
	"fmt"
	"io"
	"os"
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
	ctl      *os.File
	messages chan message
	gone     chan struct{} // closed at end-of-file: the caller is gone
	children chan os.Signal
	terms    chan os.Signal
}

func runGuard() int {
	// The guard mostly waits; one thread of Go code is plenty.
	runtime.GOMAXPROCS(1)
	setName(guardArg0)
	syscall.CloseOnExec(controlFD) // the guarded processes must not hold it
	g := &guard{ctl: os.NewFile(controlFD, "control"), messages: make(chan message), gone: make(chan struct{}),
		children: make(chan os.Signal, 16), terms: make(chan os.Signal, 4)}
	signal.Notify(g.children, syscall.SIGCHLD)
	// Asked to stop by a signal rather than the socket (pkill, say): the
	// same as a stop, and no process after this one.
	signal.Notify(g.terms, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	// Before anything starts: every orphan of a tree must come here.
	subreaper := setChildSubreaper()
	go g.read()
	for {
		select {
		case m := <-g.messages:
			if m.Run == nil {
				continue // a stop for a process that has ended
			}
			if subreaper != nil {
				writeLine(g.ctl, report{Failed: subreaper.Error()})
				return 2
			}
			if !g.run(*m.Run) {
				return 0
			}
		case <-g.children:
			g.reap(0) // nothing should be left; collect it if it is
		case <-g.gone:
			return 0
		case <-g.terms:
			return 0
		}
	}
}

// read passes the caller's messages on until end-of-file (or a line it
// cannot read, which it takes for the same: the caller is broken).
func (g *guard) read() {
	r := bufio.NewReader(g.ctl)
	for {
		var m message
		if err := readLine(r, &m); err != nil {
			close(g.gone)
			return
		}
		g.messages <- m
	}
}

// run runs one process to its end and reports it; it says whether the
// guard may run another.
func (g *guard) run(req request) bool {
	grace := time.Duration(req.GraceMS) * time.Millisecond
	if grace <= 0 {
		grace = DefaultGrace
	}
	t, err := start(req)
	if err != nil {
		writeLine(g.ctl, report{Failed: err.Error()})
		return true
	}
	writeLine(g.ctl, report{Started: t.leader})

	var graceEnd <-chan time.Time
	stop := func() {
		// The process's group (a child it started a moment ago may not be
		// in /proc's listing yet), and every process of the tree outside
		// it: each once.
		syscall.Kill(-t.leader, syscall.SIGTERM)
		signalOutside(os.Getpid(), t.leader, syscall.SIGTERM)
		if graceEnd == nil {
			graceEnd = time.After(grace)
		}
	}
	again, callerGone, signalled := true, false, false
	var status syscall.WaitStatus
	// Until the process has exited; once the caller has signalled the
	// tree (a drain's SIGTERM: checkpoint and stop), until what it left
	// has ended too, or the caller ends it: a shell running the task's
	// command dies of the SIGTERM at once, and its child, the training
	// script, must not be killed while it writes its checkpoint.
	for exited, left := false, true; !exited || (signalled && left && !callerGone); {
		select {
		case <-g.children:
			st, done, more := g.reap(t.leader)
			if done {
				status, exited = st, true
			}
			left = more
		case m := <-g.messages:
			if m.Stop {
				stop()
			}
			if m.Signal != 0 {
				signalled = true
				syscall.Kill(-t.leader, syscall.Signal(m.Signal))
				signalOutside(os.Getpid(), t.leader, syscall.Signal(m.Signal))
			}
		case <-g.terms:
			again = false
			stop()
		case <-graceEnd:
			signalTree(os.Getpid(), syscall.SIGKILL)
		case <-g.gone:
			// The caller died without asking: nobody waits for a
			// graceful end.
			callerGone = true
			g.gone = nil
			signalTree(os.Getpid(), syscall.SIGKILL)
		}
	}
	r := g.ended(t, status)
	if callerGone {
		return false
	}
	writeLine(g.ctl, r)
	return again
}

// ended clears away what t's process left running, once it has ended
// (and, when signalled, what it left running too, or the caller ended
// it), and returns the report of its end: its exit status and what its
// output lost.
func (g *guard) ended(t *tree, status syscall.WaitStatus) report {
	// Its orphans were re-parented here as it exited, so a guard with no
	// children left has no tree: most processes leave none, and the walk
	// of /proc is then saved.
	if _, _, left := g.reap(0); left {
		killTree(os.Getpid(), time.Now().Add(killDeadline))
		g.reap(0) // what the kill left behind
	}
	r := report{Ended: true}
	if status.Signaled() {
		r.Signal = int(status.Signal())
		r.Code = 128 + r.Signal
	} else {
		r.Code = status.ExitStatus()
	}
	r.StdoutCut, r.StderrCut, r.OutputErr = t.finishOutputs()
	return r
}

// reap collects every child that has exited: a process, and orphans of
// its tree re-parented here. It reports leader's status once it has
// exited, and whether any child is left running.
func (g *guard) reap(leader int) (status syscall.WaitStatus, exited, left bool) {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil: // ECHILD: no child at all
			return status, exited, false
		case pid == 0:
			return status, exited, true
		case pid == leader:
			status, exited = ws, true
		}
	}
}

// tree is one running process, the leader of its tree, and its outputs.
type tree struct {
	leader  int
	outputs []*tailFile // the distinct output files
	copies  sync.WaitGroup
	stdout  *tailFile
	stderr  *tailFile
}

// start opens the outputs and starts the process in its own group, with
// SIGKILL as its parent-death signal: should the guard itself be killed,
// the process goes with it. Output without a path goes where the guard's
// own does.
func start(req request) (*tree, error) {
	if len(req.Argv) == 0 {
		return nil, fmt.Errorf("no command")
	}
	path, err := LookPath(req.Argv[0], req.Env)
	if err != nil {
		return nil, err
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer devNull.Close()
	t := &tree{}
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
		tf, err := openTail(p, req.MaxOutput)
		if err != nil {
			t.closeOutputs()
			return nil, err
		}
		t.outputs = append(t.outputs, tf)
		r, w, err := os.Pipe()
		if err != nil {
			t.closeOutputs()
			return nil, err
		}
		writeEnds = append(writeEnds, w)
		files[1+i], paths[p] = w.Fd(), w.Fd()
		if i == 0 {
			t.stdout = tf
		} else {
			t.stderr = tf
		}
		t.copies.Add(1)
		go func() {
			defer t.copies.Done()
			io.Copy(tf, r)
			r.Close()
		}()
	}
	pid, err := syscall.ForkExec(path, req.Argv, &syscall.ProcAttr{
		Dir:   req.Dir,
		Env:   req.Env,
		Files: files,
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		t.closeOutputs()
		return nil, fmt.Errorf("fork/exec %s: %w", path, err)
	}
	t.leader = pid
	return t, nil
}

// outputDrain bounds the wait for the output pipes to reach end-of-file
// once the tree is dead: only a descriptor handed outside the tree could
// hold them open longer.
const outputDrain = 2 * time.Second

// finishOutputs waits for the output to be copied and closes the files.
func (t *tree) finishOutputs() (stdoutCut, stderrCut int64, problem string) {
	done := make(chan struct{})
	go func() { t.copies.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(outputDrain):
		problem = "output still open after the process tree ended; the rest is lost"
	}
	for _, tf := range t.outputs {
		cut, err := tf.Close()
		if err != nil && problem == "" {
			problem = fmt.Sprintf("writing %s: %v", tf.path, err)
		}
		if tf == t.stdout {
			stdoutCut = cut
		}
		if tf == t.stderr {
			stderrCut = cut
		}
	}
	return stdoutCut, stderrCut, problem
}

// closeOutputs closes the files opened before a failed start; their
// copiers end as the pipes' write ends close.
func (t *tree) closeOutputs() {
	for _, tf := range t.outputs {
		tf.Close()
	}
}
