package core

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/scheduler"
)

// executor is a registered executor.
type executor struct {
	id       scheduler.ExecutorID
	lastSeen time.Time
	sum      *ExecutorSummary
	// stopping says why the core told the executor to stop, if it did:
	// its connection ending is then no loss.
	stopping string
	departed time.Time // when its connection ended, while departing
	// goneBy, once it is written off with its tasks held (cut.go), is
	// when it has surely stopped them.
	goneBy  time.Time
	running int // attempts the scheduler has on it (usage)
	// rejoined: it outlived the AM attempt that launched it and
	// registered again with this one (resume.go).
	rejoined bool
	profile  scheduler.ProfileID
}

// Registration is an executor's first message.
type Registration struct {
	Executor scheduler.ExecutorID
	Host     string
	Cores    int
	GPUs     []string // the addresses it found
	// Accels are its addresses of each accelerator besides GPUs.
	Accels []scheduler.Assigned
	// Running, for an executor of a kept container registering again
	// with a new attempt, are the attempts it still runs (resume.go).
	Running []RunningAttempt
}

// Register adds an executor that connected. An error is why it is
// refused, for the caller to tell it before closing its connection.
func (c *Core) Register(now time.Time, r Registration) error {
	if c.final != nil {
		return errors.New("the application has ended")
	}
	if c.execs[r.Executor] != nil || c.departing[r.Executor] != nil || c.cut[r.Executor] != nil {
		return fmt.Errorf("executor id %s is already registered", r.Executor)
	}
	profile := c.cfg.Profiles[0].ID
	if c.yarn != nil {
		p, ok := c.yarn.profileOf(string(r.Executor))
		if !ok {
			return fmt.Errorf("executor id %s is not one of this application's", r.Executor)
		}
		if d := c.yarn.live[string(r.Executor)].drain; d != nil && !c.kept.awaiting[r.Executor] {
			return fmt.Errorf("executor %s: its container is going back to YARN: %s", r.Executor, d.why)
		}
		profile = p
	}
	err := c.sched.AddExecutor(now, scheduler.ExecutorSpec{ID: r.Executor, Host: r.Host, Profile: profile, Cores: r.Cores, GPUs: r.GPUs, Accels: r.Accels})
	if err != nil {
		return err
	}
	c.usage.registered(now)
	s := &ExecutorSummary{ID: r.Executor, Host: r.Host}
	// A job's summary names every executor of its application. A session
	// runs for weeks with executors coming and going, and its clients are
	// told their job's own figures: it keeps no such list.
	if !c.cfg.Session {
		c.registered = append(c.registered, now)
		c.every = append(c.every, s)
	}
	x := &executor{id: r.Executor, lastSeen: now, sum: s, profile: profile}
	c.execs[r.Executor] = x
	if c.kept.awaiting[r.Executor] || len(r.Running) > 0 {
		c.adopt(now, x, r.Running)
		c.drainAdopted(now, x)
	}
	c.notice(Notice{Executor: r.Executor, Node: r.Host, Message: fmt.Sprintf("executor registered: %d cores, GPUs %v%s", r.Cores, r.GPUs, assignedText(r.Accels))})
	return nil
}

// Rejected counts a connection refused before it could register: it
// failed authentication, or came over the listener's bounds.
func (c *Core) Rejected() { c.rejected++ }

// TaskState is where an attempt is, as its executor reports it.
type TaskState int

const (
	TaskStarted TaskState = iota
	TaskSucceeded
	TaskFailed
	TaskKilled
)

// TaskStatus is one report of an attempt.
type TaskStatus struct {
	Attempt  scheduler.AttemptID
	State    TaskState
	Reason   string
	ExitCode int
	// StdoutCut and StderrCut say the head of the attempt's output files
	// was cut to keep spindle.task.log.maxBytes.
	StdoutCut, StderrCut bool
}

// Statuses applies an executor's reports; it is heard from, too.
func (c *Core) Statuses(now time.Time, id scheduler.ExecutorID, sts []TaskStatus) {
	x := c.execs[id]
	if x == nil {
		return
	}
	x.lastSeen = now
	for _, st := range sts {
		c.taskStatus(now, x, st)
	}
	// A kept executor's first batch after it registered again says what
	// ended while it had no driver: placement waited for it (resume.go).
	delete(c.kept.awaiting, id)
}

// Seen notes an executor's heartbeat.
func (c *Core) Seen(now time.Time, id scheduler.ExecutorID) {
	if x := c.execs[id]; x != nil {
		x.lastSeen = now
	}
}

func (c *Core) taskStatus(now time.Time, x *executor, st TaskStatus) {
	var r scheduler.TaskResult
	var j *job
	s, ok := c.stages[st.Attempt.Task.Stage]
	if ok {
		j = s.job
	}
	switch st.State {
	case TaskSucceeded:
		r.Outcome = scheduler.Succeeded
		x.sum.Succeeded++
	case TaskFailed:
		r = scheduler.TaskResult{Outcome: scheduler.Failed, Reason: st.Reason, ExitCode: st.ExitCode}
		x.sum.Failed++
		if j != nil {
			j.sum.Failures++
		}
	case TaskKilled:
		// Told to checkpoint and stop as its container drains: the task
		// did nothing wrong (drain.go).
		d := c.drainOf(x)
		r = scheduler.TaskResult{Outcome: scheduler.Killed, Reason: st.Reason, Blameless: d != nil && d.signalled}
	default:
		return // started: nothing to decide
	}
	if j != nil {
		name := string(x.id) + "/" + tasklog.Name(int64(j.id), s.index, st.Attempt.Task.Index, st.Attempt.Attempt)
		if st.StdoutCut {
			j.sum.outputCut(name + tasklog.Stdout)
		}
		if st.StderrCut {
			j.sum.outputCut(name + tasklog.Stderr)
		}
	}
	// A gang task's success counts once its whole run's does (place.go).
	final := r.Outcome == scheduler.Succeeded && j != nil && c.DoneOnReport(st.Attempt.Task.Stage)
	// A report for an attempt the scheduler already wrote off (its
	// executor was declared lost), or one another executor runs, changes
	// nothing.
	if err := c.sched.TaskFinished(now, x.id, st.Attempt, r); err == nil {
		c.usage.taskEnded(now, x)
		if final {
			j.succeeded++
		}
	} else if x.rejoined && r.Outcome == scheduler.Succeeded && c.sched.RestoreSucceeded(now, st.Attempt.Task) == nil && j != nil {
		// It ended while its executor had no driver, so no attempt of
		// this one ran it: its success stands (resume.go).
		j.succeeded++
	}
	c.drainedTaskEnded(now, x)
	if c.cfg.OneTaskPerExecutor {
		c.retire(now, x)
	}
}

// retire takes an executor out of the scheduler before it can be given a
// second task, and tells it to stop: its container then ends.
func (c *Core) retire(now time.Time, x *executor) {
	if c.execs[x.id] != x {
		return // already gone
	}
	if c.yarn != nil {
		c.yarn.leave(string(x.id))
	}
	c.remove(now, x, scheduler.ExecutorLoss{Reason: "its one task ended (fine-grained mode)"}, false)
	c.rd.Disconnects = append(c.rd.Disconnects, Disconnect{Executor: x.id, Reason: "task done"})
}

// ConnectionEnded handles an executor's connection closing. An executor
// the core told to stop is simply gone. Otherwise, with LossReasonWait,
// it takes no new tasks while its container's exit status is awaited;
// without, it is lost now, blamelessly.
func (c *Core) ConnectionEnded(now time.Time, id scheduler.ExecutorID, why string) {
	x := c.execs[id]
	if x == nil {
		return
	}
	if x.stopping != "" {
		c.remove(now, x, scheduler.ExecutorLoss{Reason: x.stopping}, false)
		return
	}
	why = "connection ended: " + why
	if c.cfg.LossReasonWait <= 0 {
		c.lose(now, x, scheduler.ExecutorLoss{Reason: why})
		return
	}
	delete(c.execs, id)
	x.departed = now
	c.departing[id] = x
	c.sched.DisableExecutor(id)
	c.notice(Notice{Executor: id, Message: fmt.Sprintf("executor %s; awaiting its exit status for up to %v", why, c.cfg.LossReasonWait)})
}

// executorEnded applies the word on how an executor's process ended,
// whether its connection has ended yet or not.
func (c *Core) executorEnded(now time.Time, id scheduler.ExecutorID, loss scheduler.ExecutorLoss) {
	if c.cutGone(now, id, "its container ended: "+loss.Reason) {
		return
	}
	if x := c.departing[id]; x != nil {
		c.lose(now, x, loss)
		return
	}
	if x := c.execs[id]; x != nil {
		if x.stopping != "" {
			loss = scheduler.ExecutorLoss{Reason: x.stopping}
		}
		c.lose(now, x, loss)
	}
}

// lose removes an executor that went away, recording why; one the core
// did not ask to stop is lost mid-job.
func (c *Core) lose(now time.Time, x *executor, loss scheduler.ExecutorLoss) {
	if x.stopping == "" {
		x.sum.Lost = loss.Reason
		blame := "its running tasks run again, not counted against them"
		if loss.TaskFault {
			blame = "its running tasks' attempts count as failed"
		}
		c.notice(Notice{Warning: true, Executor: x.id, Message: fmt.Sprintf("executor lost: %s; %s", loss.Reason, blame)})
	}
	c.remove(now, x, loss, x.stopping == "")
	c.rd.Disconnects = append(c.rd.Disconnects, Disconnect{Executor: x.id, Reason: loss.Reason})
}

// remove takes an executor out of the core and the scheduler.
func (c *Core) remove(now time.Time, x *executor, loss scheduler.ExecutorLoss, lost bool) {
	c.usage.removed(now, x)
	c.rd.Removed = append(c.rd.Removed, Removed{Executor: x.id, Reason: loss.Reason, Lost: lost, TaskFault: loss.TaskFault})
	delete(c.execs, x.id)
	delete(c.departing, x.id)
	c.dropHeldOn(x.id)
	c.sched.RemoveExecutor(now, x.id, loss)
}

// stop tells an executor to shut down; its connection ending then is no
// loss. It takes no task on its way out.
func (c *Core) stop(x *executor, why string) {
	if x.stopping != "" {
		return
	}
	x.stopping = why
	if c.yarn != nil {
		c.yarn.leave(string(x.id))
	}
	c.sched.DisableExecutor(x.id)
	c.rd.Disconnects = append(c.rd.Disconnects, Disconnect{Executor: x.id, Reason: why})
}

// checkExecutors declares lost the executors that went quiet, and the
// departing ones whose end nobody explained in time, holding their tasks
// while their containers go where it can (cut.go).
func (c *Core) checkExecutors(now time.Time) {
	var late []*executor
	if c.cfg.HeartbeatTimeout > 0 {
		for _, x := range c.execs {
			if now.Sub(x.lastSeen) > c.cfg.HeartbeatTimeout {
				late = append(late, x)
			}
		}
	}
	byID(late)
	for _, x := range late {
		c.lose(now, x, scheduler.ExecutorLoss{Reason: fmt.Sprintf("no heartbeat for %v", c.cfg.HeartbeatTimeout)})
	}
	c.checkCut(now)
	var unexplained []*executor
	for _, x := range c.departing {
		if now.Sub(x.departed) >= c.cfg.LossReasonWait {
			unexplained = append(unexplained, x)
		}
	}
	byID(unexplained)
	for _, x := range unexplained {
		if c.holdCut(now, x) {
			continue
		}
		c.lose(now, x, scheduler.ExecutorLoss{Reason: fmt.Sprintf("connection ended; no exit status within %v", c.cfg.LossReasonWait)})
	}
}

func byID(xs []*executor) { sort.Slice(xs, func(i, k int) bool { return xs[i].id < xs[k].id }) }
