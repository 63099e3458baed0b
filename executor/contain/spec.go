package contain

import (
	"io"
	"time"
)

// Spec is one process to run contained.
type Spec struct {
	// Argv is the command and its arguments. Argv[0] without a slash is
	// looked up in Env's PATH.
	Argv []string
	// Env is the whole environment of the process (nil: empty). The guard
	// runs with it too: nothing else is passed through the environment.
	Env []string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// StdoutPath and StderrPath receive the output: created (0644, with
	// their directories) or truncated; they may be the same file. Each
	// keeps at most MaxOutput bytes (0: no cap), the last ones written.
	// An empty path sends that stream to Stdout or Stderr instead.
	StdoutPath, StderrPath string
	MaxOutput              int64
	// Stdout and Stderr receive the streams that have no path, uncapped
	// (nil: discarded). They are closed to the process's tree when the
	// tree is gone, so a reader sees their end once Wait returns.
	Stdout, Stderr io.Writer
	// Grace is how long Stop waits between SIGTERM and SIGKILL (default
	// DefaultGrace).
	Grace time.Duration
	// Name labels the guard in ps ("job0-stage0-task1-attempt0"); optional.
	Name string
}

// DefaultGrace is Spec.Grace's default: enough for a process to flush and
// exit on SIGTERM, short enough that whoever stops it can wait.
const DefaultGrace = 2 * time.Second

// Result is how a contained process ended.
type Result struct {
	// ExitCode is the exit status; a process ended by a signal gets
	// 128+signal, the shell's convention (SIGKILL: 137, SIGTERM: 143), so
	// it is non-zero and reads the same as `$?` would. -1 when Err is set.
	ExitCode int
	// Signal names the signal that ended it ("SIGKILL"), empty otherwise.
	Signal string
	// Err is set only when the exit status could not be learnt (the guard
	// itself died).
	Err error
	// Start and End bound the process's life as the caller saw it.
	Start, End time.Time
	// StdoutCut and StderrCut count the bytes dropped from the head of
	// each output file to keep it within MaxOutput.
	StdoutCut, StderrCut int64
	// OutputErr is set when an output file could not be written in full
	// (a full disk, say); the process ran regardless.
	OutputErr string
}
