package am

import (
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
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

// Through the loop: a container the RM allocated and its NodeManager
// started is gone with its node when the RM reports the node SHUTDOWN in
// updated_nodes, and the next allocate asks for one in its place. (No
// executor registers: the container, live, holds its place until then.)
func TestDriverReplacesTheContainersOfANodeGone(t *testing.T) {
	nm := &ipctest.Server{Protocol: yarn.ContainerManagementProtocol, Handler: func(method string, _ []byte) (proto.Message, error) {
		return &hadoopyarn.StartContainersResponseProto{}, nil
	}}
	host, port, err := net.SplitHostPort(nm.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	node := &hadoopyarn.NodeIdProto{Host: proto.String(host), Port: proto.Int32(int32(p))}
	f := &fakeRM{}
	f.respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch n {
		case 0: // one of the 3 asked for, on the node
			return &hadoopyarn.AllocateResponseProto{
				AllocatedContainers: []*hadoopyarn.ContainerProto{{Id: containerID(2), NodeId: node, AllocationRequestId: proto.Int64(req.GetAsk()[0].GetAllocationRequestId())}},
				NmTokens: []*hadoopyarn.NMTokenProto{{NodeId: node, Token: &hadoopcommon.TokenProto{Identifier: []byte{}, Password: []byte{},
					Kind: proto.String(yarn.NMTokenKind), Service: proto.String(host + ":" + port)}}}}
		case 1:
			return &hadoopyarn.AllocateResponseProto{UpdatedNodes: []*hadoopyarn.NodeReportProto{{NodeId: node, NodeState: hadoopyarn.NodeStateProto_NS_SHUTDOWN.Enum()}}}
		case 2:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}
	if err := ended(t, startYarnDriver(t, f)); err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v, want AM_SHUTDOWN", err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d allocates, want 3", len(reqs))
	}
	first := reqs[0].GetAsk()[0].GetAllocationRequestId()
	if n := len(reqs[1].GetAsk()); n != 0 {
		t.Errorf("the allocate after the container arrived asks %v; want nothing new (2 still outstanding)", reqs[1].GetAsk())
	}
	if ask := reqs[2].GetAsk(); len(ask) != 1 || ask[0].GetNumContainers() != 1 || ask[0].GetAllocationRequestId() <= first {
		t.Errorf("the allocate after the node went asks %v; want 1 container in the lost one's place, under a new id", ask)
	}
}
