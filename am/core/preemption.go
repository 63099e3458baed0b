package core

import "time"

// preempted drains the containers the RM named in its PreemptionMessage
// (drain.go): their tasks are told to checkpoint and stop at once, and
// each goes once its tasks have ended, DrainGrace later at the latest, so
// that the AM releases it before the RM's own deadline
// (yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill)
// kills it. The RM names a container again in every answer until it is
// gone: each is handled once. A container the application does not hold
// as an executor's (the AM's own, one completed) is passed over.
func (c *Core) preempted(now time.Time, ids []string) {
	for _, id := range ids {
		if ct := c.yarn.live[id]; ct == nil || ct.drain != nil {
			continue
		}
		c.startDrain(now, id, drain{why: "preempted by YARN", signalAt: now, releaseBy: now.Add(c.cfg.DrainGrace)})
	}
}
