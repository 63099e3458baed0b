package am

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// coreNodeStates are the RM's node states as the core knows them; the
// rest (NEW, REBOOTED) are core.NodeOther.
var coreNodeStates = map[hadoopyarn.NodeStateProto]core.NodeState{
	hadoopyarn.NodeStateProto_NS_RUNNING:         core.NodeRunning,
	hadoopyarn.NodeStateProto_NS_UNHEALTHY:       core.NodeUnhealthy,
	hadoopyarn.NodeStateProto_NS_DECOMMISSIONING: core.NodeDecommissioning,
	hadoopyarn.NodeStateProto_NS_DECOMMISSIONED:  core.NodeDecommissioned,
	hadoopyarn.NodeStateProto_NS_LOST:            core.NodeLost,
	hadoopyarn.NodeStateProto_NS_SHUTDOWN:        core.NodeShutdown,
}

// updatedNode is a node of allocate's updated_nodes as the core sees it,
// named as allocatedContainer names a container's node.
func updatedNode(n *hadoopyarn.NodeReportProto, portInNodeName bool) core.NodeUpdate {
	node, name := nodemanager.NodeID(n.GetNodeId()), n.GetNodeId().GetHost()
	if portInNodeName {
		name = node
	}
	state, ok := coreNodeStates[n.GetNodeState()]
	if !ok {
		state = core.NodeOther
	}
	// Unset (0) when the RM gives no timeout.
	timeout := time.Duration(n.GetDecommissioningTimeout()) * time.Second
	return core.NodeUpdate{Node: node, NodeName: name, State: state, DecommissionTimeout: timeout}
}
