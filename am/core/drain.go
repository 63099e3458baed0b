package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// An executor drains when YARN wants its container back: preempted for
// another queue's application (preemption.go), or on a node being
// decommissioned (decommission.go). It takes no new task. An idle one's
// container is released at once, a busy one's as soon as its tasks have
// ended; its running tasks are told to checkpoint and stop (Ready.Drains)
// when its plan says, and at its plan's deadline the container goes
// whatever still runs there. The AM gives the container back itself,
// before YARN's own deadline: YARN killing it would give the tasks no
// warning. Its tasks run again elsewhere, not counted as failures, and
// its end counts against no node: neither the tasks nor the node did
// anything wrong. A replacement is asked for at once (the container is
// leaving), on another node or when the other queue's claim allows.

// drain is a draining container's plan.
type drain struct {
	why string
	// signalAt is when the tasks running there are told to checkpoint and
	// stop, releaseBy when the container goes whatever runs: both zero
	// for a node decommissioned with no timeout, whose tasks run to
	// their end.
	signalAt, releaseBy time.Time
	signalled           bool // Ready.Drains has told the executor
	released            bool // it is in the release list, or was sent
	// decommissioning: its node is being decommissioned, not the
	// container preempted.
	decommissioning bool
}

// Drain tells an executor that its container is going: each task running
// there finds SPINDLE_PREEMPTED=1 in the file $SPINDLE_PREEMPTED_FILE
// names, then gets SIGTERM, and SIGKILL after Grace if it has not ended.
// Their ends are reported killed, and run again elsewhere uncounted.
type Drain struct {
	Executor scheduler.ExecutorID
	Reason   string
	Grace    time.Duration
}

// startDrain puts container id on plan d: an executor there takes no new
// task, and the container's replacement is asked for.
func (c *Core) startDrain(now time.Time, id string, d drain) {
	k := c.yarn
	ct := k.live[id]
	ct.drain = &d
	k.leave(id)
	x := c.execs[scheduler.ExecutorID(id)]
	if x == nil || x.stopping != "" {
		// No executor of ours takes tasks there: it has not registered,
		// its connection ended, or it was told to stop already.
		c.releaseContainer(id, d.why)
		return
	}
	c.sched.DisableExecutor(x.id)
	c.rd.DrainsStarted = append(c.rd.DrainsStarted, DrainStarted{Executor: x.id, Reason: d.why, ReleaseBy: d.releaseBy, Decommissioning: d.decommissioning})
	if x.running == 0 {
		c.drainStep(now, x, ct.drain) // idle: released now
		return
	}
	plan := fmt.Sprintf("released when its %d running tasks end", x.running)
	switch {
	case d.releaseBy.IsZero():
	case d.signalAt.After(now):
		plan += fmt.Sprintf(", or in %v whatever runs; its tasks are told to checkpoint and stop in %v", d.releaseBy.Sub(now), d.signalAt.Sub(now))
	default:
		plan += fmt.Sprintf(", or in %v whatever runs; its tasks are told to checkpoint and stop now", d.releaseBy.Sub(now))
	}
	c.notice(Notice{Warning: true, Executor: x.id, Node: ct.node, Message: fmt.Sprintf("executor draining: %s; it takes no new task, %s", d.why, plan)})
	c.drainStep(now, x, ct.drain)
}

// drainStep does what is due of a draining executor's plan at now.
func (c *Core) drainStep(now time.Time, x *executor, d *drain) {
	switch {
	case d.released:
	case x.running == 0 || (!d.releaseBy.IsZero() && !now.Before(d.releaseBy)):
		if x.stopping == "" {
			x.stopping = "its container was given back to YARN: " + d.why
		}
		c.releaseContainer(string(x.id), d.why)
	case !d.signalled && !d.signalAt.IsZero() && !now.Before(d.signalAt):
		d.signalled = true
		c.rd.Drains = append(c.rd.Drains, Drain{Executor: x.id, Reason: d.why, Grace: c.cfg.DrainGrace})
	}
}

// releaseContainer gives a draining container back to YARN with the next
// allocate, which goes at once: YARN's deadline is running. Its executor,
// if any, ends as the NodeManager stops the container.
func (c *Core) releaseContainer(id, why string) {
	k := c.yarn
	ct := k.live[id]
	ct.drain.released = true
	k.release = append(k.release, id)
	k.releaseNow = true
	c.notice(Notice{Container: id, Node: ct.node, Message: "container released: " + why})
}

// checkDrains does what has fallen due of every draining executor's plan.
func (c *Core) checkDrains(now time.Time) {
	if c.yarn == nil {
		return
	}
	for _, id := range c.draining() {
		if x := c.execs[scheduler.ExecutorID(id)]; x != nil {
			c.drainStep(now, x, c.yarn.live[id].drain)
		}
	}
}

// draining lists the containers draining and not yet released, in order.
func (c *Core) draining() []string {
	var ids []string
	for id, ct := range c.yarn.live {
		if ct.drain != nil && !ct.drain.released {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// drainTimes are when draining executors' plans next fall due.
func (c *Core) drainTimes() []time.Time {
	var ts []time.Time
	for _, id := range c.draining() {
		if c.execs[scheduler.ExecutorID(id)] == nil {
			continue // released: nothing more is due
		}
		d := c.yarn.live[id].drain
		if !d.signalled {
			ts = append(ts, d.signalAt)
		}
		ts = append(ts, d.releaseBy)
	}
	return ts
}

// drainedTaskEnded moves a draining executor's plan on as one of its tasks
// ends, before anything else is done with the executor: in fine mode it
// is retired at once, and its container must still be released.
func (c *Core) drainedTaskEnded(now time.Time, x *executor) {
	if d := c.drainOf(x); d != nil {
		c.drainStep(now, x, d)
	}
}

// drainOf is the drain plan of an executor's container; nil when it is
// not draining (or not on YARN).
func (c *Core) drainOf(x *executor) *drain {
	if c.yarn == nil {
		return nil
	}
	if ct := c.yarn.live[string(x.id)]; ct != nil {
		return ct.drain
	}
	return nil
}

// drainedEnd is how a drained container's end is taken: whatever its exit
// status (-102 if YARN's deadline won the race, -100 once released), it
// ended because YARN wanted it back, which blames neither its tasks nor
// its node.
func drainedEnd(id string, d *drain) scheduler.ExecutorLoss {
	return scheduler.ExecutorLoss{Reason: fmt.Sprintf("container %s was given back to YARN: %s", id, d.why)}
}
