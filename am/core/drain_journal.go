package core

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// A drain outlives the AM attempt that began it: the journal records it
// (Ready.DrainsStarted, Ready.Undrained), and the next attempt, taking
// over the executor's container (Kept), puts it back on its plan. The
// executor, once it has registered again with the tasks it still runs,
// takes no new task; its tasks are told to checkpoint and stop at the
// plan's time (at once, if that has passed), and its container goes once
// they end, or at the plan's deadline whatever runs. A container whose
// node was being decommissioned marks the node so again: it takes no
// new container. Until its executor registers again nothing of the plan
// is due; one that never does is released at the end of the wait, as
// any kept container whose executor did not come back.

// DrainStarted is an executor that began draining, as the journal
// records it.
type DrainStarted struct {
	Executor scheduler.ExecutorID
	Reason   string
	// ReleaseBy is when its container goes whatever runs; zero for a
	// node decommissioned with no timeout.
	ReleaseBy       time.Time
	Decommissioning bool
}

// KeptDrain is the drain a kept container's executor was on, as the
// journal says.
type KeptDrain struct {
	Reason          string
	ReleaseBy       time.Time
	Decommissioning bool
}

// keptDraining puts kept container id back on drain plan d: its tasks
// are told to checkpoint and stop the grace period before the deadline,
// as when the plan began.
func (c *Core) keptDraining(now time.Time, id string, d KeptDrain) {
	k := c.yarn
	ct := k.live[id]
	plan := &drain{why: d.Reason, releaseBy: d.ReleaseBy, decommissioning: d.Decommissioning}
	if !d.ReleaseBy.IsZero() {
		plan.signalAt = d.ReleaseBy.Add(-c.cfg.DrainGrace)
	}
	ct.drain = plan
	k.leave(id)
	if d.Decommissioning {
		k.decommissioning[ct.node] = true
	}
	when := "once its tasks end"
	if !d.ReleaseBy.IsZero() {
		when = fmt.Sprintf("%v from now at the latest", d.ReleaseBy.Sub(now))
	}
	c.notice(Notice{Warning: true, Container: id, Node: ct.node, Message: fmt.Sprintf("kept container draining, as the previous attempt left it: %s; it goes %s", d.Reason, when)})
}

// drainAdopted goes on with the drain plan of a kept executor that has
// registered again, once its running tasks are adopted: it takes no new
// task, and what of the plan is due is done.
func (c *Core) drainAdopted(now time.Time, x *executor) {
	d := c.drainOf(x)
	if d == nil || d.released {
		return
	}
	c.sched.DisableExecutor(x.id)
	c.drainStep(now, x, d)
}
