package am

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// preemptedContainers are the containers a PreemptionMessage names: the
// strict contract's (the RM will take them whatever the AM does) and the
// negotiable one's (it will take them unless the AM gives back as much
// of the resources it asks for; the CapacityScheduler fills only this
// one). Spindle gives back exactly the containers named, either way. A
// container named in both is named once.
func preemptedContainers(m *hadoopyarn.PreemptionMessageProto) []string {
	var ids []string
	seen := map[string]bool{}
	for _, list := range [][]*hadoopyarn.PreemptionContainerProto{m.GetStrictContract().GetContainer(), m.GetContract().GetContainer()} {
		for _, c := range list {
			if id := yarn.ContainerID(c.GetId()); !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// nodeStates maps the RM's node states to the core's.
var nodeStates = map[hadoopyarn.NodeStateProto]core.NodeState{
	hadoopyarn.NodeStateProto_NS_RUNNING:         core.NodeRunning,
	hadoopyarn.NodeStateProto_NS_UNHEALTHY:       core.NodeUnhealthy,
	hadoopyarn.NodeStateProto_NS_DECOMMISSIONING: core.NodeDecommissioning,
	hadoopyarn.NodeStateProto_NS_DECOMMISSIONED:  core.NodeDecommissioned,
	hadoopyarn.NodeStateProto_NS_LOST:            core.NodeLost,
	hadoopyarn.NodeStateProto_NS_SHUTDOWN:        core.NodeShutdown,
}

// nodeUpdates are allocate's updated_nodes as the core takes them: each
// node by its NodeId and its name as the blacklist takes it (see
// allocatedContainer), its state, and a decommissioning node's timeout.
func nodeUpdates(reports []*hadoopyarn.NodeReportProto, portInNodeName bool) []core.NodeUpdate {
	var out []core.NodeUpdate
	for _, r := range reports {
		node, name := nodemanager.NodeID(r.GetNodeId()), r.GetNodeId().GetHost()
		if portInNodeName {
			name = node
		}
		st, ok := nodeStates[r.GetNodeState()]
		if !ok {
			st = core.NodeOther
		}
		out = append(out, core.NodeUpdate{Node: node, NodeName: name, State: st,
			DecommissionTimeout: time.Duration(r.GetDecommissioningTimeout()) * time.Second})
	}
	return out
}
