package yarn_test

import (
	"context"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// byService answers each call with an empty message of the response type
// that the named service declares for the method, after checking that the
// request parses as the declared request type. It records the methods seen.
type byService struct {
	t       *testing.T
	service protoreflect.ServiceDescriptor
	mu      sync.Mutex
	seen    []string
}

func (b *byService) handle(method string, body []byte) (proto.Message, error) {
	b.mu.Lock()
	b.seen = append(b.seen, method)
	b.mu.Unlock()
	m := b.service.Methods().ByName(protoreflect.Name(method))
	if m == nil {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
	}
	if err := proto.Unmarshal(body, dynamicpb.NewMessage(m.Input())); err != nil {
		b.t.Errorf("%s: request does not parse as %s: %v", method, m.Input().FullName(), err)
	}
	return dynamicpb.NewMessage(m.Output()), nil
}

func service(t *testing.T, name string) protoreflect.ServiceDescriptor {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName("spindle.hadoop.yarn." + name))
	if err != nil {
		t.Fatal(err)
	}
	return d.(protoreflect.ServiceDescriptor)
}

// serve starts a fake server for protocol that answers by service's
// declarations, and returns its address and the recorder.
func serve(t *testing.T, protocol, svc string) (string, *byService) {
	b := &byService{t: t, service: service(t, svc)}
	srv := &ipctest.Server{Protocol: protocol, Handler: b.handle}
	return srv.Start(t), b
}

func TestApplicationClientMethodsMatchTheProtocol(t *testing.T) {
	addr, rec := serve(t, yarn.ApplicationClientProtocol, "ApplicationClientProtocolService")
	c, err := yarn.NewApplicationClient([]string{addr}, ipc.Options{Auth: ipc.Auth{User: "u"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	calls := []func() error{
		func() error {
			_, err := c.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
			return err
		},
		func() error {
			_, err := c.SubmitApplication(ctx, &hadoopyarn.SubmitApplicationRequestProto{})
			return err
		},
		func() error {
			_, err := c.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{})
			return err
		},
		func() error { _, err := c.GetApplications(ctx, &hadoopyarn.GetApplicationsRequestProto{}); return err },
		func() error {
			_, err := c.ForceKillApplication(ctx, &hadoopyarn.KillApplicationRequestProto{ApplicationId: &hadoopyarn.ApplicationIdProto{}})
			return err
		},
		func() error {
			_, err := c.GetClusterMetrics(ctx, &hadoopyarn.GetClusterMetricsRequestProto{})
			return err
		},
		func() error { _, err := c.GetClusterNodes(ctx, &hadoopyarn.GetClusterNodesRequestProto{}); return err },
		func() error {
			_, err := c.GetResourceTypeInfo(ctx, &hadoopyarn.GetAllResourceTypeInfoRequestProto{})
			return err
		},
		func() error { _, err := c.GetQueueInfo(ctx, &hadoopyarn.GetQueueInfoRequestProto{}); return err },
		func() error {
			_, err := c.GetApplicationAttempts(ctx, &hadoopyarn.GetApplicationAttemptsRequestProto{})
			return err
		},
	}
	for i, call := range calls {
		if err := call(); err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if len(rec.seen) != rec.service.Methods().Len() {
		t.Errorf("called %v; the service declares %d methods", rec.seen, rec.service.Methods().Len())
	}
}

func TestAMRMAndNMClientMethodsMatchTheProtocols(t *testing.T) {
	ctx := context.Background()
	addr, rec := serve(t, yarn.ApplicationMasterProtocol, "ApplicationMasterProtocolService")
	am, err := yarn.NewAMRMClient([]string{addr}, ipc.Options{Auth: ipc.Auth{User: "u"}})
	if err != nil {
		t.Fatal(err)
	}
	defer am.Close()
	if _, err := am.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{}); err != nil {
		t.Error(err)
	}
	if _, err := am.Allocate(ctx, &hadoopyarn.AllocateRequestProto{}); err != nil {
		t.Error(err)
	}
	if _, err := am.FinishApplicationMaster(ctx, &hadoopyarn.FinishApplicationMasterRequestProto{}); err != nil {
		t.Error(err)
	}
	if len(rec.seen) != 3 {
		t.Errorf("AMRM calls seen: %v", rec.seen)
	}

	addr, rec = serve(t, yarn.ContainerManagementProtocol, "ContainerManagementProtocolService")
	tok := &hadoopcommon.TokenProto{Identifier: []byte{1}, Password: []byte{2}, Kind: proto.String(yarn.NMTokenKind), Service: proto.String(addr)}
	nm, err := yarn.NewNMClient(addr, tok, ipc.Options{Auth: ipc.Auth{User: "u"}})
	if err != nil {
		t.Fatal(err)
	}
	defer nm.Close()
	if _, err := nm.StartContainers(ctx, &hadoopyarn.StartContainersRequestProto{}); err != nil {
		t.Error(err)
	}
	if _, err := nm.StopContainers(ctx, &hadoopyarn.StopContainersRequestProto{}); err != nil {
		t.Error(err)
	}
	if _, err := nm.GetContainerStatuses(ctx, &hadoopyarn.GetContainerStatusesRequestProto{}); err != nil {
		t.Error(err)
	}
	if len(rec.seen) != 3 {
		t.Errorf("NM calls seen: %v", rec.seen)
	}
}

func TestResourceCarriesGPUsAndAnyType(t *testing.T) {
	r := yarn.NewResource(2048, 4, map[string]int64{yarn.GPU: 2, "example.com/fpga": 1})
	b, err := proto.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back := &hadoopyarn.ResourceProto{}
	if err := proto.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{yarn.Memory: 2048, yarn.VCores: 4, yarn.GPU: 2, "example.com/fpga": 1}
	got := yarn.ResourceValues(back)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("values %v, want %v", got, want)
	}
	if yarn.ResourceValue(back, "absent") != 0 {
		t.Error("an absent type must read as 0")
	}
	// The order of the map entries does not depend on Go's map order.
	again, _ := proto.Marshal(yarn.NewResource(2048, 4, map[string]int64{"example.com/fpga": 1, yarn.GPU: 2}))
	if string(again) != string(b) {
		t.Error("NewResource is not deterministic")
	}
}
