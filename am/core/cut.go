package core

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// An executor whose connection ended while both it and the AM live (a
// network partition, an outbox cutting off an executor that stopped
// reading) cannot tell this from its AM dying: it keeps its tasks
// running for its rejoin timeout, waiting to be dialled, then stops them
// and exits (exitstatus.DriverGone). So when no exit status comes within
// LossReasonWait, the executor is written off as for kept containers
// (kept.go): its container is released and its NodeManager told to stop
// it (Ready.StopKept), and its running tasks stay where they are, placed
// nowhere else, until its container is known gone (its NodeManager says
// it stopped: KeptStopped; or the RM says it completed other than by the
// release itself, whose word comes before the NodeManager has heard of
// it) or ContainerConfig.CutStopWait has passed since the connection
// ended, by when the executor has stopped them itself. Then they run
// again, not counted against them.

// holdCut writes off a departing executor whose exit status never came:
// its container is released and its tasks held; false when it has no
// container to release (local mode) or no bound to hold them for.
func (c *Core) holdCut(now time.Time, x *executor) bool {
	k := c.yarn
	if k == nil || k.cfg.CutStopWait <= 0 || k.live[string(x.id)] == nil {
		return false
	}
	id := string(x.id)
	delete(c.departing, x.id)
	x.goneBy = x.departed.Add(k.cfg.CutStopWait)
	c.cut[x.id] = x
	x.sum.Lost = fmt.Sprintf("connection ended; no exit status within %v", c.cfg.LossReasonWait)
	k.leave(id)
	k.release = append(k.release, id)
	c.rd.StopKept = append(c.rd.StopKept, id)
	c.notice(Notice{Warning: true, Executor: x.id, Container: id, Message: fmt.Sprintf(
		"executor lost: %s; its container released; its running tasks run again, not counted against them, once it is known stopped, within %v",
		x.sum.Lost, x.goneBy.Sub(now))})
	return true
}

// cutGone ends the hold on a written-off executor's tasks, if it is
// one: they run again, not counted against them.
func (c *Core) cutGone(now time.Time, id scheduler.ExecutorID, why string) bool {
	x := c.cut[id]
	if x == nil {
		return false
	}
	delete(c.cut, id)
	loss := scheduler.ExecutorLoss{Reason: fmt.Sprintf("%s; %s", x.sum.Lost, why)}
	c.notice(Notice{Executor: id, Message: "the written-off executor is gone: " + why + "; its tasks run again"})
	c.remove(now, x, loss, true)
	return true
}

// releasedCut says whether a completed status is the RM's word on the
// release of a written-off executor's container, which comes before its
// NodeManager has even heard of it: the executor may still run.
func (c *Core) releasedCut(done Completion) bool {
	return c.cut[scheduler.ExecutorID(done.Container)] != nil && done.ExitStatus == ExitAborted
}

// checkCut ends the holds whose bound has passed.
func (c *Core) checkCut(now time.Time) {
	var due []*executor
	for _, x := range c.cut {
		if !now.Before(x.goneBy) {
			due = append(due, x)
		}
	}
	byID(due)
	for _, x := range due {
		c.cutGone(now, x.id, fmt.Sprintf("not known stopped in %v, it has stopped its tasks by now", c.yarn.cfg.CutStopWait))
	}
}
