package executor

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/spindle-yarn/spindle/executor/contain"
)

// TaskSpec is one task process to run.
type TaskSpec struct {
	// Argv is the command and its arguments; Argv[0] without a slash is
	// looked up in the task's PATH.
	Argv []string
	// Env is laid over the inherited environment (InheritedEnvironment of
	// the executor's) as KEY=VALUE; a later entry wins, so put the job's
	// own variables before TaskEnvironment's.
	Env []string
	// Dir is the working directory; empty means the executor's.
	Dir string
	// StdoutPath and StderrPath receive the output, created (0644, with
	// their directories) or truncated; they may be the same file. Empty
	// means discard. Each keeps at most MaxOutput bytes, the tail (0: no
	// cap).
	StdoutPath, StderrPath string
	MaxOutput              int64
	// Grace is how long Kill waits between SIGTERM and SIGKILL (0:
	// contain.DefaultGrace).
	Grace time.Duration
	// Name labels the task's guard in ps.
	Name string
}

// Result is how a task process ended.
type Result = contain.Result

// Task is a started task process. Its methods are safe for concurrent use.
type Task struct {
	p *contain.Process
}

// Start starts spec's process under a guard (package contain), so that
// every process it starts ends with it: when it exits, when it is killed,
// and when this executor dies, however. A command that does not exist is
// an error from Start carrying the OS error, such as `exec: "nope":
// executable file not found in $PATH`; nothing is left running then.
func Start(spec TaskSpec) (*Task, error) { return startIn(nil, spec) }

// startIn is Start with the guards of pool (nil: a guard of its own).
func startIn(pool *contain.Pool, spec TaskSpec) (*Task, error) {
	env, err := mergeEnvironment(InheritedEnvironment(os.Environ()), spec.Env)
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
	p, err := pool.Start(contain.Spec{Argv: spec.Argv, Env: env, Dir: spec.Dir, Name: spec.Name,
		StdoutPath: spec.StdoutPath, StderrPath: spec.StderrPath, MaxOutput: spec.MaxOutput, Grace: spec.Grace})
	if err != nil {
		return nil, err
	}
	return &Task{p: p}, nil
}

// Wait blocks until the task and every process it started have ended, and
// returns how. It may be called any number of times.
func (t *Task) Wait() Result { return t.p.Wait() }

// Signal sends sig to every process of the task now (its process group,
// and what left it), and nothing after it.
func (t *Task) Signal(sig syscall.Signal) { t.p.Signal(sig) }

// Done is closed once the task and every process it started have ended.
func (t *Task) Done() <-chan struct{} { return t.p.Done() }

// Kill asks every process of the task to stop with SIGTERM and kills what
// is left with SIGKILL after the grace period; it returns once they are
// gone. Calling it again, or after the task ended, does no harm.
func (t *Task) Kill() { t.p.Stop() }
