package am

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Each of the RM's node states reaches the core as its own, the rest
// (NEW, REBOOTED) as NodeOther; a node is named as its containers are
// (host:port where the scheduler includes the port in node names); the
// decommissioning timeout, in seconds on the wire, is 0 when unset.
func TestUpdatedNodeAsTheCoreSeesIt(t *testing.T) {
	id := &hadoopyarn.NodeIdProto{Host: proto.String("nm7"), Port: proto.Int32(8041)}
	for state, want := range map[hadoopyarn.NodeStateProto]core.NodeState{
		hadoopyarn.NodeStateProto_NS_NEW:             core.NodeOther,
		hadoopyarn.NodeStateProto_NS_RUNNING:         core.NodeRunning,
		hadoopyarn.NodeStateProto_NS_UNHEALTHY:       core.NodeUnhealthy,
		hadoopyarn.NodeStateProto_NS_DECOMMISSIONED:  core.NodeDecommissioned,
		hadoopyarn.NodeStateProto_NS_LOST:            core.NodeLost,
		hadoopyarn.NodeStateProto_NS_REBOOTED:        core.NodeOther,
		hadoopyarn.NodeStateProto_NS_DECOMMISSIONING: core.NodeDecommissioning,
		hadoopyarn.NodeStateProto_NS_SHUTDOWN:        core.NodeShutdown,
	} {
		got := updatedNode(&hadoopyarn.NodeReportProto{NodeId: id, NodeState: state.Enum()}, false)
		if want := (core.NodeUpdate{Node: "nm7:8041", NodeName: "nm7", State: want}); got != want {
			t.Errorf("%v: %+v, want %+v", state, got, want)
		}
	}
	got := updatedNode(&hadoopyarn.NodeReportProto{NodeId: id, NodeState: hadoopyarn.NodeStateProto_NS_DECOMMISSIONING.Enum(),
		DecommissioningTimeout: proto.Uint32(30)}, true)
	if want := (core.NodeUpdate{Node: "nm7:8041", NodeName: "nm7:8041", State: core.NodeDecommissioning, DecommissionTimeout: 30 * time.Second}); got != want {
		t.Errorf("a decommissioning node, port in node names: %+v, want %+v", got, want)
	}
}
