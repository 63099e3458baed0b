package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// decommissioned applies what the RM says of nodes being gracefully
// decommissioned (`yarn rmadmin -refreshNodes -g TIMEOUT`): such a node
// takes no new container of the application (one the RM hands out there
// is released), and the executors there drain (drain.go). A busy one
// runs its tasks to their end if they end in time; DrainGrace before the
// node's timeout runs out they are told to checkpoint and stop, and at
// the timeout the container goes whatever runs: the timeout less an
// allocate interval, for the RM's clock started up to one before the AM
// heard. A node the RM reports
// without a timeout lets its tasks run to their end. A node back to
// RUNNING (recommissioned) takes containers again, and its executors not
// yet told to stop take tasks again. The other states are node loss's
// business.
func (c *Core) decommissioned(now time.Time, nodes []NodeUpdate) {
	k := c.yarn
	for _, n := range nodes {
		if n.Node == k.cfg.AMNode && k.cfg.AMContainer != "" {
			c.amNode(now, n)
		}
		switch {
		case n.State == NodeDecommissioning && !k.decommissioning[n.Node]:
			k.decommissioning[n.Node] = true
			c.notice(Notice{Warning: true, Node: n.Node, Message: decommissionNotice(n.DecommissionTimeout)})
			d := drain{why: "its node is being decommissioned", decommissioning: true}
			if n.DecommissionTimeout > 0 {
				// The RM's clock started when it began decommissioning
				// the node, up to an allocate interval before the AM
				// heard of it.
				d.releaseBy = notBefore(now, now.Add(n.DecommissionTimeout-k.cfg.Heartbeat))
				d.signalAt = notBefore(now, d.releaseBy.Add(-c.cfg.DrainGrace))
			}
			for _, id := range k.on(n.Node) {
				if k.live[id].drain == nil {
					c.startDrain(now, id, d)
				}
			}
		case n.State == NodeRunning && k.decommissioning[n.Node]:
			delete(k.decommissioning, n.Node)
			c.notice(Notice{Node: n.Node, Message: "node recommissioned: it takes executors again"})
			for _, id := range k.on(n.Node) {
				c.undrain(id)
			}
		}
	}
}

// notBefore is t, or now if t is past.
func notBefore(now, t time.Time) time.Time {
	if t.Before(now) {
		return now
	}
	return t
}

func decommissionNotice(timeout time.Duration) string {
	if timeout <= 0 {
		return "node being decommissioned: it takes no new executor, and its executors go once their tasks end"
	}
	return fmt.Sprintf("node being decommissioned within %v: it takes no new executor, and its executors go once their tasks end", timeout)
}

// undrain takes a container of a recommissioned node off its drain plan,
// unless its tasks were told to stop or it is released already: its
// executor takes tasks again, and serves its profile's target again.
func (c *Core) undrain(id string) {
	ct := c.yarn.live[id]
	x := c.execs[scheduler.ExecutorID(id)]
	if ct.drain == nil || ct.drain.signalled || ct.drain.released || x == nil || x.stopping != "" {
		return
	}
	ct.drain, ct.leaving = nil, false
	c.sched.EnableExecutor(x.id)
	c.rd.Undrained = append(c.rd.Undrained, x.id)
}

// on lists the live containers on node (NodeId), in order.
func (k *containers) on(node string) []string {
	var ids []string
	for id, ct := range k.live {
		if ct.node == node {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}
