package am_test

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

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
	f := &amtest.FakeRM{}
	f.Respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch n {
		case 0: // one of the 3 asked for, on the node
			return &hadoopyarn.AllocateResponseProto{
				AllocatedContainers: []*hadoopyarn.ContainerProto{{Id: amtest.ContainerID(2), NodeId: node, AllocationRequestId: proto.Int64(req.GetAsk()[0].GetAllocationRequestId())}},
				NmTokens: []*hadoopyarn.NMTokenProto{{NodeId: node, Token: &hadoopcommon.TokenProto{Identifier: []byte{}, Password: []byte{},
					Kind: proto.String(yarn.NMTokenKind), Service: proto.String(host + ":" + port)}}}}
		case 1:
			return &hadoopyarn.AllocateResponseProto{UpdatedNodes: []*hadoopyarn.NodeReportProto{{NodeId: node, NodeState: hadoopyarn.NodeStateProto_NS_SHUTDOWN.Enum()}}}
		case 2:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}
	if err := runOnYARN(t, f); err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v, want AM_SHUTDOWN", err)
	}
	reqs := f.Requests()
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
