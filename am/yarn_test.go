package am

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// fakeRM plays an RM that restarts: its first allocate answers that the
// application master is not registered.
type fakeRM struct {
	mu         sync.Mutex
	allocates  []*hadoopyarn.AllocateRequestProto
	registered int
	forgotOnce bool
}

func (f *fakeRM) handle(method string, body []byte) (proto.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "registerApplicationMaster":
		f.registered++
		return &hadoopyarn.RegisterApplicationMasterResponseProto{}, nil
	case "allocate":
		req := &hadoopyarn.AllocateRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		f.allocates = append(f.allocates, req)
		if !f.forgotOnce {
			f.forgotOnce = true
			return nil, &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException", Message: "restarted"}
		}
		return &hadoopyarn.AllocateResponseProto{ResponseId: proto.Int32(req.GetResponseId() + 1)}, nil
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}

func TestContainersReRegisterAfterTheRMForgetsThem(t *testing.T) {
	f := &fakeRM{}
	srv := &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: f.handle}
	addr := srv.Start(t)
	rm, err := yarn.NewAMRMClient([]string{addr}, ipc.Options{Auth: ipc.Auth{User: "am", Tokens: []*hadoopcommon.TokenProto{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	c := &Containers{RM: rm, Profile: scheduler.Profile{Cores: 2, MemoryMB: 512, GPUs: 1}, Executors: 3, MaxGPUsPerNode: 4,
		Launch: &hadoopyarn.ContainerLaunchContextProto{}, Heartbeat: 20 * time.Millisecond, Progress: func() float32 { return 0.25 },
		Register: func(ctx context.Context) error {
			_, err := rm.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{})
			return err
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		f.mu.Lock()
		n := len(f.allocates)
		f.mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d allocates", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.registered != 1 {
		t.Fatalf("registered %d times after the RM forgot the AM, want 1", f.registered)
	}
	// After registering again the conversation starts over at response id 0
	// and the whole ask is sent anew.
	next := f.allocates[1]
	if next.GetResponseId() != 0 {
		t.Errorf("first allocate after re-registering sent responseId %d, want 0", next.GetResponseId())
	}
	if len(next.GetAsk()) != 1 || next.GetAsk()[0].GetNumContainers() != 3 || next.GetAsk()[0].GetAllocationRequestId() != askID {
		t.Errorf("ask after re-registering: %v, want 3 containers with allocation request id %d", next.GetAsk(), askID)
	}
	if gpus := yarn.ResourceValue(next.GetAsk()[0].GetCapability(), yarn.GPU); gpus != 1 {
		t.Errorf("ask carries %d %s, want 1", gpus, yarn.GPU)
	}
	if p := next.GetProgress(); p != 0.25 {
		t.Errorf("allocate reported progress %v, want the job's 0.25", p)
	}
	// Later allocates echo the response id the RM gave.
	if got, want := f.allocates[2].GetResponseId(), int32(1); got != want {
		t.Errorf("responseId %d, want %d echoed", got, want)
	}
}
