package integration

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// These tests speak Hadoop RPC from Go, through yarnpb alone, to the real
// ResourceManager and NodeManagers.

func TestRPCClusterMetricsNodesAndResourceTypes(t *testing.T) {
	c := testcluster.Get(t)
	rm := applicationClient(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	metrics, err := rm.GetClusterMetrics(ctx, &hadoopyarn.GetClusterMetricsRequestProto{})
	if err != nil {
		t.Fatalf("getClusterMetrics: %v", err)
	}
	if n := metrics.GetClusterMetrics().GetNumNodeManagers(); int(n) != c.NodeManagers {
		t.Errorf("getClusterMetrics: %d NodeManagers, want %d", n, c.NodeManagers)
	}

	nodes, err := rm.GetClusterNodes(ctx, &hadoopyarn.GetClusterNodesRequestProto{NodeStates: []hadoopyarn.NodeStateProto{hadoopyarn.NodeStateProto_NS_RUNNING}})
	if err != nil {
		t.Fatalf("getClusterNodes: %v", err)
	}
	if len(nodes.GetNodeReports()) != c.NodeManagers {
		t.Errorf("getClusterNodes: %d running nodes, want %d", len(nodes.GetNodeReports()), c.NodeManagers)
	}
	for _, n := range nodes.GetNodeReports() {
		if gpus := yarn.ResourceValue(n.GetCapability(), yarn.GPU); gpus != int64(c.GPUsPerNode) {
			t.Errorf("node %s:%d offers %d %s, want %d", n.GetNodeId().GetHost(), n.GetNodeId().GetPort(), gpus, yarn.GPU, c.GPUsPerNode)
		}
	}

	types, err := rm.GetResourceTypeInfo(ctx, &hadoopyarn.GetAllResourceTypeInfoRequestProto{})
	if err != nil {
		t.Fatalf("getResourceTypeInfo: %v", err)
	}
	var names []string
	for _, rt := range types.GetResourceTypeInfo() {
		names = append(names, rt.GetName())
	}
	if !strings.Contains(","+strings.Join(names, ",")+",", ","+yarn.GPU+",") {
		t.Errorf("getResourceTypeInfo lists %v, want %s among them", names, yarn.GPU)
	}

	queue, err := rm.GetQueueInfo(ctx, &hadoopyarn.GetQueueInfoRequestProto{QueueName: proto.String("default")})
	if err != nil {
		t.Fatalf("getQueueInfo: %v", err)
	}
	if queue.GetQueueInfo().GetQueueName() != "default" {
		t.Errorf("getQueueInfo(default) = %v", queue.GetQueueInfo())
	}
}

func TestRPCUnknownApplicationIsApplicationNotFound(t *testing.T) {
	c := testcluster.Get(t)
	rm := applicationClient(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{
		ApplicationId: &hadoopyarn.ApplicationIdProto{Id: proto.Int32(9999), ClusterTimestamp: proto.Int64(1)},
	})
	if !errors.Is(err, ipc.ErrApplicationNotFound) {
		t.Fatalf("report of an unknown application: err = %v, want ErrApplicationNotFound", err)
	}
}

func TestRPCUnmanagedApplicationMasterRoundTrip(t *testing.T) {
	unmanagedAMRoundTrip(t, testcluster.Get(t))
}

func TestRPCUnmanagedApplicationMasterRoundTripWithPrivacy(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{RPCProtection: "privacy"})
	if c.RPCProtection != "privacy" {
		t.Fatalf("cluster runs with hadoop.rpc.protection=%q", c.RPCProtection)
	}
	unmanagedAMRoundTrip(t, c)
}

// A client that will only authenticate without a security layer cannot
// talk to a privacy cluster: so the round trip above really wrapped.
func TestRPCPrivacyClusterRefusesAnUnwrappedClient(t *testing.T) {
	c := testcluster.GetWith(t, testcluster.Config{RPCProtection: "privacy"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, token := submitUnmanaged(ctx, t, applicationClient(t, c), "spindle-refused")
	am := amrmClient(t, c, token, []sasl.QOP{sasl.Auth})
	_, err := am.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String("localhost")})
	if err == nil || !errors.Is(err, ipc.ErrAuthentication) {
		t.Fatalf("register with qop auth only against privacy: err = %v, want an authentication error", err)
	}
	t.Logf("refused as it should be: %v", err)
}

// unmanagedAMRoundTrip is an ApplicationMaster's life in miniature: submit
// an unmanaged application, register with its AMRMToken, allocate a
// container carrying a GPU, start a command in it through its NodeManager
// with the NMToken, see it complete with exit status 0, and finish as
// SUCCEEDED; the RM's report must say so.
func unmanagedAMRoundTrip(t *testing.T, c *testcluster.Cluster) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rm := applicationClient(t, c)
	appID, token := submitUnmanaged(ctx, t, rm, "spindle-yarnpb-"+t.Name())

	am := amrmClient(t, c, token, nil)
	reg, err := am.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{
		Host: proto.String("localhost"), RpcPort: proto.Int32(0), TrackingUrl: proto.String(""),
	})
	if err != nil {
		t.Fatalf("registerApplicationMaster: %v", err)
	}
	if gpus := yarn.ResourceValue(reg.GetMaximumCapability(), yarn.GPU); gpus < 1 {
		t.Fatalf("maximum capability %v offers no GPU", reg.GetMaximumCapability())
	}

	// Ask for one container with a GPU and heartbeat until it comes.
	ask := &hadoopyarn.ResourceRequestProto{
		Priority:      &hadoopyarn.PriorityProto{Priority: proto.Int32(1)},
		ResourceName:  proto.String("*"),
		Capability:    yarn.NewResource(128, 1, map[string]int64{yarn.GPU: 1}),
		NumContainers: proto.Int32(1),
		RelaxLocality: proto.Bool(true),
	}
	responseID := int32(0)
	nmTokens := map[string]*hadoopcommon.TokenProto{}
	heartbeat := func(asks []*hadoopyarn.ResourceRequestProto) *hadoopyarn.AllocateResponseProto {
		t.Helper()
		resp, err := am.Allocate(ctx, &hadoopyarn.AllocateRequestProto{Ask: asks, ResponseId: proto.Int32(responseID), Progress: proto.Float32(0.5)})
		if err != nil {
			t.Fatalf("allocate (responseId %d): %v", responseID, err)
		}
		responseID = resp.GetResponseId()
		for _, nt := range resp.GetNmTokens() {
			nmTokens[nodeAddr(nt.GetNodeId())] = nt.GetToken()
		}
		return resp
	}
	var container *hadoopyarn.ContainerProto
	for asks := []*hadoopyarn.ResourceRequestProto{ask}; container == nil; asks = nil {
		resp := heartbeat(asks)
		if got := resp.GetAllocatedContainers(); len(got) > 0 {
			container = got[0]
		} else {
			wait(ctx, t, "an allocated container")
		}
	}
	if gpus := yarn.ResourceValue(container.GetResource(), yarn.GPU); gpus != 1 {
		t.Fatalf("allocated container's resource %v has %d %s, want 1", container.GetResource(), gpus, yarn.GPU)
	}

	// Start a short command in it through its NodeManager.
	node := nodeAddr(container.GetNodeId())
	nmToken := nmTokens[node]
	if nmToken == nil {
		t.Fatalf("no NMToken for node %s (have %d)", node, len(nmTokens))
	}
	_, nmOpts := clientConfig(t, c)
	nm, err := yarn.NewNMClient(node, nmToken, nmOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer nm.Close()
	started, err := nm.StartContainers(ctx, &hadoopyarn.StartContainersRequestProto{StartContainerRequest: []*hadoopyarn.StartContainerRequestProto{{
		ContainerLaunchContext: &hadoopyarn.ContainerLaunchContextProto{Command: []string{"echo spindle-yarnpb; exit 0"}},
		ContainerToken:         container.GetContainerToken(),
	}}})
	if err != nil {
		t.Fatalf("startContainers on %s: %v", node, err)
	}
	if f := started.GetFailedRequests(); len(f) > 0 {
		t.Fatalf("startContainers failed: %v", f)
	}
	if len(started.GetSucceededRequests()) != 1 {
		t.Fatalf("startContainers succeeded for %v, want the one container", started.GetSucceededRequests())
	}

	// Its completion arrives in a later allocate.
	var status *hadoopyarn.ContainerStatusProto
	for status == nil {
		for _, s := range heartbeat(nil).GetCompletedContainerStatuses() {
			if proto.Equal(s.GetContainerId(), container.GetId()) {
				status = s
			}
		}
		if status == nil {
			wait(ctx, t, "the container's completion")
		}
	}
	if status.GetState() != hadoopyarn.ContainerStateProto_C_COMPLETE || status.GetExitStatus() != 0 {
		t.Fatalf("container ended %v with exit status %d: %s", status.GetState(), status.GetExitStatus(), status.GetDiagnostics())
	}

	for {
		fin, err := am.FinishApplicationMaster(ctx, &hadoopyarn.FinishApplicationMasterRequestProto{
			FinalApplicationStatus: hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED.Enum(),
			Diagnostics:            proto.String("yarnpb round trip done"),
		})
		if err != nil {
			t.Fatalf("finishApplicationMaster: %v", err)
		}
		if fin.GetIsUnregistered() {
			break
		}
		wait(ctx, t, "unregistration")
	}
	for {
		rep, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: appID})
		if err != nil {
			t.Fatalf("getApplicationReport: %v", err)
		}
		r := rep.GetApplicationReport()
		if r.GetYarnApplicationState() == hadoopyarn.YarnApplicationStateProto_FINISHED {
			if r.GetFinalApplicationStatus() != hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
				t.Fatalf("application finished %v: %s", r.GetFinalApplicationStatus(), r.GetDiagnostics())
			}
			return
		}
		wait(ctx, t, "the FINISHED report")
	}
}
