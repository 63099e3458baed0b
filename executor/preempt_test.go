package executor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// fakeClock fires the channels after gives out once Advance has moved it
// to their time, and never before.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []fakeTimer
	asked  chan time.Duration // each after's duration, as it is asked
}

type fakeTimer struct {
	at time.Duration
	ch chan time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{asked: make(chan time.Duration, 8)} }

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, fakeTimer{c.now + d, ch})
	c.asked <- d
	return ch
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += d
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at <= c.now {
			t.ch <- time.Time{}
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

// fakeTask records the signals it gets and, at its SIGTERM, what its
// preempted file held then.
type fakeTask struct {
	file   string
	mu     sync.Mutex
	sigs   []syscall.Signal
	atTerm string
	done   chan struct{}
}

func (t *fakeTask) Signal(sig syscall.Signal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if sig == syscall.SIGTERM {
		b, _ := os.ReadFile(t.file)
		t.atTerm = string(b)
	}
	t.sigs = append(t.sigs, sig)
}

func (t *fakeTask) Done() <-chan struct{} { return t.done }

func (t *fakeTask) signals() []syscall.Signal {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.sigs)
}

// preemptOn runs preempt on a fake task with a fake clock, and returns
// them once preempt has asked for its timer, with preempt's result to
// come.
func preemptOn(t *testing.T, grace time.Duration) (*fakeTask, *fakeClock, <-chan error) {
	t.Helper()
	task := &fakeTask{file: filepath.Join(t.TempDir(), "job0-stage0-task0-attempt0"+".preempted"), done: make(chan struct{})}
	clock := newFakeClock()
	res := make(chan error, 1)
	go func() { res <- preempt(task, task.file, grace, clock.after) }()
	if d := <-clock.asked; d != grace {
		t.Fatalf("preempt waits %v for the task, want the grace period %v", d, grace)
	}
	return task, clock, res
}

// The checkpoint signal's order: the file holds SPINDLE_PREEMPTED=1
// before the SIGTERM; SIGKILL comes exactly when the grace period has
// passed with the task still running, and not a nanosecond before.
func TestPreemptWritesTheFileThenTermsThenKillsAtTheGrace(t *testing.T) {
	const grace = 10 * time.Second
	task, clock, res := preemptOn(t, grace)
	if got := task.signals(); !slices.Equal(got, []syscall.Signal{syscall.SIGTERM}) {
		t.Fatalf("signals %v, want SIGTERM alone at first", got)
	}
	if want := taskenv.PreemptedLine + "\n"; task.atTerm != want {
		t.Fatalf("at its SIGTERM the task's file held %q, want %q: the file must come first", task.atTerm, want)
	}
	clock.Advance(grace - time.Nanosecond)
	select {
	case err := <-res:
		t.Fatalf("preempt returned (%v) before the grace period passed, the task running", err)
	case <-time.After(50 * time.Millisecond):
	}
	if got := task.signals(); len(got) != 1 {
		t.Fatalf("signals %v a nanosecond before the grace period ends, want SIGTERM alone", got)
	}
	clock.Advance(time.Nanosecond) // exactly the grace period
	if err := <-res; err != nil {
		t.Fatal(err)
	}
	if got := task.signals(); !slices.Equal(got, []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL}) {
		t.Fatalf("signals %v at the grace period, want SIGTERM then SIGKILL", got)
	}
}

// A task that ends within the grace period, a nanosecond before it runs
// out, gets no SIGKILL, nor does one later.
func TestPreemptSparesATaskThatEndsInTime(t *testing.T) {
	const grace = 2 * time.Second
	task, clock, res := preemptOn(t, grace)
	clock.Advance(grace - time.Nanosecond)
	close(task.done)
	if err := <-res; err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if got := task.signals(); !slices.Equal(got, []syscall.Signal{syscall.SIGTERM}) {
		t.Fatalf("signals %v, want SIGTERM alone", got)
	}
}

// A file that cannot be written does not hold the signal back.
func TestPreemptSignalsWhenTheFileCannotBeWritten(t *testing.T) {
	task := &fakeTask{file: filepath.Join(t.TempDir(), "no-such-dir", "p"), done: make(chan struct{})}
	close(task.done)
	err := preempt(task, task.file, time.Second, time.After)
	if err == nil || !slices.Equal(task.signals(), []syscall.Signal{syscall.SIGTERM}) {
		t.Fatalf("preempt: %v, signals %v; want an error and the SIGTERM still sent", err, task.signals())
	}
}

// A drained executor tells its real tasks as preempt does, through their
// process groups. A job's string command runs under /bin/sh -c, which
// dies of the SIGTERM at once: the script it runs traps SIGTERM, finds
// SPINDLE_PREEMPTED=1 in its $SPINDLE_PREEMPTED_FILE, and has the time it
// needs to write its checkpoint. A task that ignores SIGTERM is killed
// once the grace period has passed, not before. Both are reported KILLED:
// told to stop, they did not finish.
func TestDrainedTasksCheckpointOrAreKilledAfterTheGrace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 2, LogDir: dir, WorkDir: dir})
	saw := filepath.Join(dir, "saw")
	train := writeFile(t, "train.sh", `#!/bin/sh
trap 'p=$(cat "$SPINDLE_PREEMPTED_FILE"); sleep 0.2; echo "$p" > `+saw+`; exit 0' TERM
touch `+saw+`.ready
while :; do sleep 0.05; done
`, 0o755)
	stubborn := `trap '' TERM; touch ` + dir + `/stubborn.ready; while :; do sleep 0.05; done`
	conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{
		{StageId: 7, TaskIndex: 0, Job: "j", Stage: "s", TaskCount: 2, Argv: []string{"/bin/sh", "-c", train}},
		{StageId: 7, TaskIndex: 1, Job: "j", Stage: "s", TaskCount: 2, Argv: []string{"/bin/sh", "-c", stubborn}},
	}}}})
	for _, ready := range []string{saw + ".ready", dir + "/stubborn.ready"} {
		for _, err := os.Stat(ready); err != nil; _, err = os.Stat(ready) {
			if ctx.Err() != nil {
				t.Fatalf("the tasks never started: %v", err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	const grace = 700 * time.Millisecond
	drained := time.Now()
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Drain{Drain: &wire.Drain{Reason: "preempted by YARN", GraceMs: grace.Milliseconds()}}})
	ends := map[int32]*wire.Status{}
	for len(ends) < 2 {
		m, err := conn.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range m.GetStatusBatch().GetStatuses() {
			ends[st.GetTaskIndex()] = st
		}
	}
	for i, st := range ends {
		if st.GetState() != wire.Status_KILLED {
			t.Errorf("task %d ended %v (exit %d), want KILLED", i, st.GetState(), st.GetExitCode())
		}
	}
	if b, _ := os.ReadFile(saw); strings.TrimSpace(string(b)) != taskenv.PreemptedLine {
		t.Errorf("the script read %q from its $SPINDLE_PREEMPTED_FILE at its SIGTERM and saved it, want %s: told too late, or killed as its shell died",
			b, taskenv.PreemptedLine)
	}
	if code := ends[0].GetExitCode(); code != 143 {
		t.Errorf("the task's shell exited %d, want 143: the SIGTERM", code)
	}
	stubbornEnd := time.Unix(0, ends[1].GetEndUnixNanos())
	if code, took := ends[1].GetExitCode(), stubbornEnd.Sub(drained); code != 137 || took < grace || took > grace+5*time.Second {
		t.Errorf("the task ignoring SIGTERM ended with %d %v after the drain; want 137 (SIGKILL) once the grace period %v had passed", code, took, grace)
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// A task still starting when the drain comes is told once it has
// started: its file says so, and it ends KILLED.
func TestDrainReachesATaskStillStarting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 1, LogDir: dir, WorkDir: dir})
	conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{
		{StageId: 7, JobId: 2, TaskIndex: 0, Job: "j", Stage: "s", TaskCount: 1, Argv: []string{"sleep", "60"}},
	}}}})
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Drain{Drain: &wire.Drain{Reason: "its node is being decommissioned", GraceMs: 5000}}})
	m, err := conn.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if st := m.GetStatusBatch().GetStatuses(); len(st) != 1 || st[0].GetState() != wire.Status_KILLED {
		t.Fatalf("statuses %v, want the task KILLED", st)
	}
	file := filepath.Join(dir, "job2-stage0-task0-attempt0.preempted")
	if b, err := os.ReadFile(file); err != nil || string(b) != taskenv.PreemptedLine+"\n" {
		t.Errorf("%s: %q, %v; want %s", file, b, err, taskenv.PreemptedLine)
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
