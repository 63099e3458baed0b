package integration

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The exclusions the AM sends in allocate's blacklist request, as the real
// RM takes them: excluded nodes get no container until an exclusion is
// lifted. (The RM's REST view of an attempt's blacklist is empty for an
// unmanaged AM, which has no master container: the allocations are the
// evidence.)
func TestRPCBlacklistKeepsContainersOffAHost(t *testing.T) {
	c := testcluster.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rm := applicationClient(t, c)
	_, token := submitUnmanaged(ctx, t, rm, "spindle-blacklist")
	am := amrmClient(t, c, token, nil)
	if _, err := am.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String("localhost"), RpcPort: proto.Int32(0)}); err != nil {
		t.Fatalf("registerApplicationMaster: %v", err)
	}
	nodes, err := rm.GetClusterNodes(ctx, &hadoopyarn.GetClusterNodesRequestProto{})
	if err != nil || len(nodes.GetNodeReports()) == 0 {
		t.Fatalf("getClusterNodes: %v %v", nodes, err)
	}
	// The mini cluster's scheduler names nodes host:port (they share a
	// host): exclude them all.
	var names []string
	for _, n := range nodes.GetNodeReports() {
		names = append(names, nodeAddr(n.GetNodeId()))
	}

	responseID := int32(0)
	allocate := func(req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		t.Helper()
		req.ResponseId = proto.Int32(responseID)
		resp, err := am.Allocate(ctx, req)
		if err != nil {
			t.Fatalf("allocate: %v", err)
		}
		responseID = resp.GetResponseId()
		return resp
	}
	ask := []*hadoopyarn.ResourceRequestProto{{Priority: &hadoopyarn.PriorityProto{Priority: proto.Int32(1)}, ResourceName: proto.String("*"),
		Capability: yarn.NewResource(128, 1, nil), NumContainers: proto.Int32(1), RelaxLocality: proto.Bool(true), AllocationRequestId: proto.Int64(1)}}
	resp := allocate(&hadoopyarn.AllocateRequestProto{Ask: ask, BlacklistRequest: &hadoopyarn.ResourceBlacklistRequestProto{BlacklistAdditions: names}})
	got := len(resp.GetAllocatedContainers())
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		got += len(allocate(&hadoopyarn.AllocateRequestProto{}).GetAllocatedContainers())
	}
	if got != 0 {
		t.Fatalf("%d containers allocated on excluded nodes", got)
	}
	allocate(&hadoopyarn.AllocateRequestProto{BlacklistRequest: &hadoopyarn.ResourceBlacklistRequestProto{BlacklistRemovals: names[:1]}})
	for got == 0 {
		got += len(allocate(&hadoopyarn.AllocateRequestProto{}).GetAllocatedContainers())
		if got == 0 {
			wait(ctx, t, "a container once the exclusion was lifted")
		}
	}
	if _, err := am.FinishApplicationMaster(ctx, &hadoopyarn.FinishApplicationMasterRequestProto{
		FinalApplicationStatus: hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED.Enum()}); err != nil {
		t.Fatalf("finishApplicationMaster: %v", err)
	}
}
