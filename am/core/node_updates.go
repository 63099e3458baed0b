package core

import "time"

// NodeUpdate is a node whose state the RM reported changed
// (allocate's updated_nodes).
type NodeUpdate struct {
	Node     string // NodeId, host:port
	NodeName string // as exclusions name it (see Container)
	State    NodeState
	// DecommissionTimeout is how long a decommissioning node has
	// left, when the RM says; 0 when it does not.
	DecommissionTimeout time.Duration
}

// NodeState is a node's state as the RM reports it (NodeStateProto).
type NodeState int

const (
	NodeRunning NodeState = iota
	NodeUnhealthy
	NodeDecommissioning
	NodeDecommissioned
	NodeLost
	NodeShutdown
	NodeOther
)
