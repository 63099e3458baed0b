package executor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// TaskSpec is one task process to run.
type TaskSpec struct {
	// Argv is the command and its arguments; Argv[0] without a slash is
	// looked up in the executor's PATH (the PATH the task inherits).
	Argv []string
	// Env is laid over BaseEnvironment() as KEY=VALUE; a later entry wins,
	// so put the job's own variables before TaskEnvironment's.
	Env []string
	// Dir is the working directory; empty means the executor's.
	Dir string
	// StdoutPath and StderrPath receive the output, created (0644, with
	// their directories) or truncated; they may be the same file. Empty
	// means discard.
	StdoutPath, StderrPath string
}

// Task is a started task process, the leader of its own process group.
// Its methods are safe for concurrent use.
type Task struct {
	cmd  *exec.Cmd
	pgid int
	done chan struct{} // closed once result is set and the leader reaped

	mu     sync.Mutex
	reaped bool // after this the pgid may name someone else's group
	result Result
}

// Start starts spec's process with stdin from /dev/null, in a new
// process group so Kill reaches everything it starts. A command that does
// not exist is an error from Start carrying the OS error, such as
// `exec: "nope": executable file not found in $PATH`; nothing is left
// running then.
//
// Linux only: the process also gets Pdeathsig SIGKILL, so an executor
// that dies without cleaning up (kill -9) takes its tasks' leaders with it
// instead of leaving them on a GPU that YARN will hand to someone else.
// (The kernel sends it when the forking OS thread exits; Go does not end
// threads it did not lock, so that means the executor.)
func Start(spec TaskSpec) (*Task, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("task has no command")
	}
	env, err := mergeEnvironment(BaseEnvironment(nil), spec.Env)
	if err != nil {
		return nil, err
	}
	// A missing working directory would fail as "fork/exec CMD: no such
	// file or directory", blaming the command; name the directory instead.
	if spec.Dir != "" {
		if fi, err := os.Stat(spec.Dir); err != nil {
			return nil, fmt.Errorf("task working directory: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("task working directory %s is not a directory", spec.Dir)
		}
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Env, cmd.Dir = env, spec.Dir
	if cmd.Err != nil { // the command was not found: no log files for it
		return nil, cmd.Err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	files, err := openOutputs(spec.StdoutPath, spec.StderrPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = files[0], files[1]
	start := time.Now()
	err = cmd.Start()
	// The child has its own descriptors now (or never will).
	files[0].Close()
	if files[1] != files[0] {
		files[1].Close()
	}
	if err != nil {
		return nil, err
	}
	t := &Task{cmd: cmd, pgid: cmd.Process.Pid, done: make(chan struct{})}
	t.result.Start = start
	go t.wait()
	return t, nil
}

// openOutputs opens the stdout and stderr files, once if they are one.
func openOutputs(stdout, stderr string) ([2]*os.File, error) {
	var files [2]*os.File
	for i, p := range []string{stdout, stderr} {
		if i == 1 && p == stdout {
			files[1] = files[0]
			break
		}
		f, err := openOutput(p)
		if err != nil {
			if files[0] != nil {
				files[0].Close()
			}
			return files, err
		}
		files[i] = f
	}
	return files, nil
}

func openOutput(path string) (*os.File, error) {
	if path == "" {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// wait waits for the leader to exit, then, before reaping it (while its
// pid, and so the group id, cannot be reused), kills whatever it left
// running in its group: a finished task must not keep a GPU busy through a
// background child. Then it reaps and records the result.
func (t *Task) wait() {
	err := waitExited(t.pgid)
	end := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err == nil {
		syscall.Kill(-t.pgid, syscall.SIGKILL)
	}
	werr := t.cmd.Wait()
	t.reaped = true
	t.result.End = end
	t.result.ExitCode, t.result.Signal, t.result.Err = exitStatus(t.cmd.ProcessState, werr)
	close(t.done)
}

// Wait blocks until the task has exited and returns how. It may be called
// any number of times.
func (t *Task) Wait() Result {
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.result
}

// Kill asks the whole process group to stop with SIGTERM and, if the task
// has not exited grace later, kills the group with SIGKILL; it returns
// once the task has exited. Calling it again, or after the task exited,
// does no harm.
func (t *Task) Kill(grace time.Duration) {
	if !t.signalGroup(syscall.SIGTERM) {
		return
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-t.done:
		return
	case <-timer.C:
	}
	t.signalGroup(syscall.SIGKILL)
	<-t.done
}

// signalGroup signals the group unless the leader was reaped; it reports
// whether it sent the signal.
func (t *Task) signalGroup(sig syscall.Signal) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reaped {
		return false
	}
	// The error is ignored: while the leader is unreaped the group exists
	// (a zombie leader still holds it), so there is nothing to report.
	syscall.Kill(-t.pgid, sig)
	return true
}
