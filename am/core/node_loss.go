package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// nodeLossStates are the node states that mean a node is gone, and its
// containers with it, named as the RM names them: its NodeManager shut
// down or was decommissioned, went silent past the liveness expiry
// (LOST), or failed its health check (the RM takes an unhealthy node out
// of scheduling and completes its containers).
var nodeLossStates = map[NodeState]string{
	NodeLost:           "LOST",
	NodeUnhealthy:      "UNHEALTHY",
	NodeShutdown:       "SHUTDOWN",
	NodeDecommissioned: "DECOMMISSIONED",
}

// nodesLost applies the RM's word that nodes are gone. Each executor on
// one is lost at once and blamelessly: its running tasks run again
// elsewhere, uncounted, and its node's health is untouched, since
// nothing the application did took the node. Its container is
// forgotten, so its GPU indices are free and the next allocate asks for
// a replacement. The RM reports those containers completed too (exit
// status -100, in the same answer or a later one): by then they are
// forgotten, and count neither twice nor against the node. An executor
// whose connection ended first (its NodeManager killed it on the way
// down) is departing; it is lost here too, without waiting for its exit
// status. Other states (RUNNING, DECOMMISSIONING) change nothing here.
func (c *Core) nodesLost(now time.Time, nodes []NodeUpdate) {
	k := c.yarn
	for _, u := range nodes {
		state, gone := nodeLossStates[u.State]
		if !gone {
			continue
		}
		var ids []string
		for id, x := range k.live {
			if x.node == u.Node {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		sort.Strings(ids)
		c.notice(Notice{Warning: true, Node: u.Node, Message: fmt.Sprintf("node %s is %s: its %d container(s) are gone; replacements will be asked for", u.Node, state, len(ids))})
		for _, id := range ids {
			k.forget(id)
			loss := scheduler.ExecutorLoss{Reason: fmt.Sprintf("container %s: its node %s is %s", id, u.Node, state)}
			c.executorEnded(now, scheduler.ExecutorID(id), loss)
		}
	}
}
