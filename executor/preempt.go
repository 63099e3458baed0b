package executor

import (
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// preemptible is what the checkpoint signal needs of a running task
// (*Task): to be signalled, and to say when it has ended.
type preemptible interface {
	Signal(syscall.Signal)
	Done() <-chan struct{}
}

// preempt tells a task that its container is going back to YARN, in an
// order a training script can rely on: taskenv.PreemptedLine into file
// (the task's $SPINDLE_PREEMPTED_FILE) first, so that a task woken by
// the signal finds it there; then SIGTERM to its process group and tree,
// for it to checkpoint and exit; then, if it has not ended when grace has
// passed, SIGKILL. It returns once the task has ended or been killed;
// after returns a channel that fires once the given time has passed
// (time.After, or a test's clock). A file that cannot be written does not
// hold the signal back: the task must stop either way.
func preempt(t preemptible, file string, grace time.Duration, after func(time.Duration) <-chan time.Time) error {
	err := os.WriteFile(file, []byte(taskenv.PreemptedLine+"\n"), 0o644)
	t.Signal(syscall.SIGTERM)
	select {
	case <-t.Done():
	case <-after(grace):
		t.Signal(syscall.SIGKILL)
	}
	return err
}

// drain gives every task running or starting here the checkpoint signal
// (preempt): the driver says this executor's container is going back to
// YARN, and sends no more tasks. A task still starting gets it once it
// has started (launch). Each ends KILLED, however it exits.
func (e *executor) drain(reason string, grace time.Duration) {
	e.mu.Lock()
	e.drainGrace = grace
	running := map[attemptKey]*Task{}
	for key, t := range e.running {
		running[key] = t
	}
	for key := range e.starting {
		e.killed[key] = true
		e.preempted[key] = true
	}
	for key := range running {
		e.killed[key] = true
	}
	e.mu.Unlock()
	e.cfg.Log.WithFields(logrus.Fields{"reason": reason, "tasks": len(running), "grace": grace}).
		Warn("the container is going back to YARN: telling its tasks to checkpoint and stop")
	for key, t := range running {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.preempt(key, t, grace)
		}()
	}
}

// preempt runs preempt on one of the executor's tasks, logging why.
func (e *executor) preempt(key attemptKey, t *Task, grace time.Duration) {
	e.mu.Lock()
	name := e.live[key].name
	e.mu.Unlock()
	log := e.cfg.Log.WithField("task", name)
	log.Info("telling the task to checkpoint and stop")
	if err := preempt(t, e.preemptedFile(name), grace, time.After); err != nil {
		log.WithError(err).Warn("the task was not told in its file: it got the signal alone")
	}
}

// preemptedFile is where the attempt named name is told to checkpoint
// and stop (its $SPINDLE_PREEMPTED_FILE): among its own files.
func (e *executor) preemptedFile(name string) string {
	return filepath.Join(e.cfg.LogDir, name+tasklog.Preempted)
}
