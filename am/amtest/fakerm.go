package amtest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// FakeRM is a ResourceManager, over Hadoop IPC on loopback (ipctest),
// that answers a driver's allocates from a script. Set its fields before
// the driver starts (WithYARN), or before Client serves it to a test's own
// application master; read what it saw with Requests and Registrations.
type FakeRM struct {
	// Respond answers allocate n (from 0), req; nil answers nothing
	// new. The response id is the harness's: the request's plus one.
	Respond func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto
	// Forget has the next allocate answer that the application master is
	// not registered, as a restarted RM does.
	Forget bool
	// Cut is how many allocates to come are cut off in flight, their
	// connections dropped as by a restarting RM (-1: every one);
	// CutRegister how many registrations.
	Cut, CutRegister int
	// Raise, when set, is the exception every allocate raises.
	Raise error

	mu         sync.Mutex
	allocates  []*hadoopyarn.AllocateRequestProto
	registered int
	srv        *ipctest.Server
}

// Handle answers one call, method with its request body: an ipctest
// Handler, for a test's RM that answers more methods to hand the rest on.
func (f *FakeRM) Handle(method string, body []byte) (proto.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "registerApplicationMaster":
		if f.CutRegister > 0 {
			f.CutRegister--
			f.srv.DropConnections()
			return nil, errors.New("cut off")
		}
		f.registered++
		return &hadoopyarn.RegisterApplicationMasterResponseProto{}, nil
	case "allocate":
		return f.allocate(body)
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}

func (f *FakeRM) allocate(body []byte) (proto.Message, error) {
	req := &hadoopyarn.AllocateRequestProto{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, err
	}
	f.allocates = append(f.allocates, req)
	switch {
	case f.Raise != nil:
		return nil, f.Raise
	case f.Cut != 0:
		f.Cut = max(f.Cut-1, -1)
		f.srv.DropConnections() // before the answer: the call is lost
		return nil, errors.New("cut off")
	case f.Forget:
		f.Forget = false
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException", Message: "restarted"}
	}
	resp := &hadoopyarn.AllocateResponseProto{}
	if f.Respond != nil {
		resp = f.Respond(len(f.allocates)-1, req)
	}
	resp.ResponseId = proto.Int32(req.GetResponseId() + 1)
	return resp, nil
}

// Requests are the allocates so far.
func (f *FakeRM) Requests() []*hadoopyarn.AllocateRequestProto {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.allocates)
}

// Registrations counts the application master's registrations so far.
func (f *FakeRM) Registrations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registered
}

// noCredentials are the options of the harness's IPC clients: ipctest's
// servers accept a client with none.
var noCredentials = ipc.Options{Auth: ipc.Auth{User: "am", Tokens: []*hadoopcommon.TokenProto{}}}

// Client serves f over IPC on loopback until the test ends, and returns
// an application master's client of it. handle answers the calls: nil
// for f's Handle, or a test's RM that answers more methods and hands the
// rest on to Handle.
func (f *FakeRM) Client(t testing.TB, handle ipctest.Handler) *yarn.AMRMClient {
	t.Helper()
	if handle == nil {
		handle = f.Handle
	}
	f.srv = &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: handle}
	rm, err := yarn.NewAMRMClient([]string{f.srv.Start(t)}, noCredentials)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	return rm
}

// yarn starts f and returns how a driver reaches it, changed by change;
// NodeManagers are reached with no credentials, which ipctest's accept.
func (f *FakeRM) yarn(t testing.TB, change ...func(*am.YARN)) *am.YARN {
	t.Helper()
	rm := f.Client(t, nil)
	y := &am.YARN{RM: rm, Launcher: nodemanager.New(noCredentials, &hadoopyarn.ContainerLaunchContextProto{}, 2), Register: func(ctx context.Context) error {
		_, err := rm.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{})
		return err
	}}
	for _, c := range change {
		c(y)
	}
	return y
}

func yarnProfiles() []scheduler.Profile {
	return []scheduler.Profile{{Cores: 2, MemoryMB: 512, GPUs: 1}}
}

func yarnContainers() *core.ContainerConfig {
	return &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 3}, MaxGPUsPerNode: 4, Heartbeat: 20 * time.Millisecond,
		InitialAllocation: 10 * time.Millisecond}
}

// ContainerID is container n of application 1_0001's first attempt,
// container_1_0001_01_00000n.
func ContainerID(n int64) *hadoopyarn.ContainerIdProto {
	return &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
		ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1), Id: proto.Int32(1)}}}
}
