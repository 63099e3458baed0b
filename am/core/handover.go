package core

import (
	"fmt"
	"slices"
	"time"
)

// The AM's own container runs on a node too, and an operator may
// decommission that node gracefully (`yarn rmadmin -refreshNodes -g
// TIMEOUT`). The RM says so in the same updated_nodes as for any node;
// at the timeout it removes the node, ending the AM's container
// (ABORTED, -100, which YARN does not count against the application's
// attempts), and the next attempt starts only then, on another node,
// adopting the executors if their rejoin timeout allows. The AM does
// not wait for that: HandoverMargin before its node's deadline (at once,
// when the timeout is shorter) it hands the application over to its
// next attempt (Ready.Handover): the caller writes the journal out
// whole, and the AM's own container goes in the next allocate's release
// list, which YARN takes as it takes any release, the container
// completed ABORTED and not counted; once the RM has answered that
// allocate Ready says HandedOver, and the AM leaves without
// unregistering, its executors running on for the next attempt. A node
// decommissioned with no timeout waits for the application to end: the
// AM stays. A node recommissioned before the handover calls it off.

// HandoverMargin is how long before its node's deadline the AM hands
// over: the time the next attempt needs to be allocated a container on
// another node, start, register, read the journal and adopt the
// executors, with room to spare, so that it does so before the node
// goes and its executors there with it.
const HandoverMargin = 30 * time.Second

// Handover says the AM's node is being decommissioned: write the journal
// out whole, then call ReleaseAM.
type Handover struct {
	Reason string
	// Deadline is when the RM removes the node, as the core counts it.
	Deadline time.Time
}

// handover is where the AM's leaving its decommissioning node stands.
type handover struct {
	Handover
	at        time.Time // when Ready says Handover
	told      bool      // Ready has said it
	releasing bool      // the AM's container is in the release list
	done      bool      // the RM has answered the allocate that released it
}

// amNode takes an update of the AM's own node.
func (c *Core) amNode(now time.Time, n NodeUpdate) {
	k := c.yarn
	switch {
	case n.State == NodeDecommissioning && c.handover == nil && n.DecommissionTimeout > 0:
		deadline := now.Add(n.DecommissionTimeout - k.cfg.Heartbeat)
		h := &handover{Handover: Handover{Reason: "the AM's own node is being decommissioned", Deadline: deadline}, at: notBefore(now, deadline.Add(-HandoverMargin))}
		c.handover = h
		c.notice(Notice{Warning: true, Node: n.Node, Message: fmt.Sprintf("the AM's own node is being decommissioned within %v: the AM hands the application over to its next attempt in %v",
			n.DecommissionTimeout, h.at.Sub(now))})
	case n.State == NodeDecommissioning && c.handover == nil:
		c.notice(Notice{Warning: true, Node: n.Node, Message: "the AM's own node is being decommissioned with no timeout: YARN waits for the application to end, and the AM stays"})
	case n.State == NodeRunning && c.handover != nil && !c.handover.told:
		c.handover = nil
		c.notice(Notice{Node: n.Node, Message: "the AM's own node recommissioned: the AM stays"})
	}
}

// checkHandover says Handover once its time has come.
func (c *Core) checkHandover(now time.Time) {
	if h := c.handover; h != nil && !h.told && !now.Before(h.at) {
		h.told = true
		c.rd.Handover = &h.Handover
		c.notice(Notice{Warning: true, Message: fmt.Sprintf("handing the application over to the next attempt, %v before the AM's node goes: %s", h.Deadline.Sub(now), h.Reason)})
	}
}

// ReleaseAM puts the AM's own container in the next allocate's release
// list, which goes at once, once the caller has done with Handover. When
// the RM has answered it, Ready says HandedOver.
func (c *Core) ReleaseAM(now time.Time) {
	h := c.handover
	if h == nil || !h.told || h.releasing {
		return
	}
	h.releasing = true
	c.yarn.release = append(c.yarn.release, c.yarn.cfg.AMContainer)
	c.yarn.releaseNow = true
	c.notice(Notice{Container: c.yarn.cfg.AMContainer, Message: "the AM's own container released: the application goes on in its next attempt"})
}

// releasedAM notes the RM's answer to an allocate that released the
// AM's own container.
func (c *Core) releasedAM(sent *AllocateRequest) {
	if h := c.handover; h != nil && h.releasing && slices.Contains(sent.Release, c.yarn.cfg.AMContainer) {
		h.done = true
	}
}

// handedOver says, once the RM has answered the allocate that released
// the AM's own container, HandedOver: nothing more is done, no other
// allocate sent, as the RM is ending the attempt.
func (c *Core) handedOver() bool {
	if h := c.handover; h != nil && h.done {
		c.rd.HandedOver = true
		return true
	}
	return false
}

// handoverTime is when the handover falls due; zero once said, or none.
func (c *Core) handoverTime() time.Time {
	if h := c.handover; h != nil && !h.told {
		return h.at
	}
	return time.Time{}
}
