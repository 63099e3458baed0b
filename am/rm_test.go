package am

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// fakeRM answers allocate from a script: respond gets the call's number
// (from 0) and request. Asked to forget, its next allocate answers that
// the application master is not registered, as a restarted RM does.
type fakeRM struct {
	mu         sync.Mutex
	allocates  []*hadoopyarn.AllocateRequestProto
	registered int
	forget     bool
	respond    func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto
	// cut is how many allocates to come it cuts off in flight, dropping
	// its connections as a restarting RM does (-1: every one), and
	// cutRegister how many registrations; raise, when set, is the
	// exception every allocate raises.
	cut, cutRegister int
	raise            error
	srv              *ipctest.Server
}

func (f *fakeRM) handle(method string, body []byte) (proto.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "registerApplicationMaster":
		if f.cutRegister > 0 {
			f.cutRegister--
			f.srv.DropConnections()
			return nil, errors.New("cut off")
		}
		f.registered++
		return &hadoopyarn.RegisterApplicationMasterResponseProto{}, nil
	case "allocate":
		req := &hadoopyarn.AllocateRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		f.allocates = append(f.allocates, req)
		if f.raise != nil {
			return nil, f.raise
		}
		if f.cut != 0 {
			f.cut = max(f.cut-1, -1)
			f.srv.DropConnections() // before the answer: the call is lost
			return nil, errors.New("cut off")
		}
		if f.forget {
			f.forget = false
			return nil, &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException", Message: "restarted"}
		}
		resp := &hadoopyarn.AllocateResponseProto{}
		if f.respond != nil {
			resp = f.respond(len(f.allocates)-1, req)
		}
		resp.ResponseId = proto.Int32(req.GetResponseId() + 1)
		return resp, nil
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}

// requests returns the allocates so far.
func (f *fakeRM) requests() []*hadoopyarn.AllocateRequestProto {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.allocates)
}

// startYarnDriver runs a one-task job on a driver whose RM is f, with
// one executor of 2 cores and a GPU wanted; it returns what Run returned.
func startYarnDriver(t *testing.T, f *fakeRM, with ...func(*YARN)) <-chan error {
	t.Helper()
	return runYarnDriver(t, yarnDriverConfig(t, f, with...))
}

// yarnDriverConfig is startYarnDriver's configuration, for a test to
// change before runYarnDriver.
func yarnDriverConfig(t *testing.T, f *fakeRM, with ...func(*YARN)) Config {
	t.Helper()
	srv := &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: f.handle}
	f.srv = srv
	addr := srv.Start(t)
	opts := ipc.Options{Auth: ipc.Auth{User: "am", Tokens: []*hadoopcommon.TokenProto{}}}
	rm, err := yarn.NewAMRMClient([]string{addr}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	y := &YARN{RM: rm, Launcher: nodemanager.New(opts, &hadoopyarn.ContainerLaunchContextProto{}, 2), Register: func(ctx context.Context) error {
		_, err := rm.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{})
		return err
	}}
	for _, o := range with {
		o(y)
	}
	cfg := Config{Core: core.Config{Profiles: []scheduler.Profile{{Cores: 2, MemoryMB: 512, GPUs: 1}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 3}, MaxGPUsPerNode: 4, Heartbeat: 20 * time.Millisecond, InitialAllocation: 10 * time.Millisecond}},
		Executors: listen(t, testSecret), YARN: y}
	return cfg
}

// runYarnDriver runs one job of one task on a driver configured as cfg.
func runYarnDriver(t *testing.T, cfg Config) <-chan error {
	t.Helper()
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, final, err := d.Run(context.Background(), job, nil)
		if err == nil && !final.Succeeded {
			err = errors.New(final.Diagnostics)
		}
		done <- err
	}()
	return done
}

// The loop's side of the AMRM conversation: an RM that forgot the
// application (ApplicationMasterNotRegistered, or AM_RESYNC from older
// RMs) is registered with again, and the next allocate starts over at
// response id 0 with the whole ask; later allocates echo the RM's
// response id; AM_SHUTDOWN ends the application, saying so.
func TestDriverObeysTheRMsCommands(t *testing.T) {
	f := &fakeRM{forget: true, respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch n {
		case 2:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_RESYNC.Enum()}
		case 4:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	var err error
	select {
	case err = <-startYarnDriver(t, f):
	case <-time.After(10 * time.Second):
		t.Fatal("the application did not end on AM_SHUTDOWN")
	}
	if err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v, want the application failed by AM_SHUTDOWN", err)
	}
	reqs := f.requests()
	if f.registered != 2 || len(reqs) < 5 {
		t.Fatalf("registered %d times in %d allocates; want 2 (once per forgetting) in at least 5", f.registered, len(reqs))
	}
	lastID := reqs[0].GetAsk()[0].GetAllocationRequestId()
	for _, i := range []int{1, 3} { // the allocates after registering again
		if reqs[i].GetResponseId() != 0 {
			t.Errorf("allocate %d, after registering again, sent responseId %d, want 0", i, reqs[i].GetResponseId())
		}
		// The RM forgot the asks: all 3 are asked anew, under a new id.
		ask := reqs[i].GetAsk()
		if len(ask) != 1 || ask[0].GetNumContainers() != 3 || ask[0].GetAllocationRequestId() <= lastID || yarn.ResourceValue(ask[0].GetCapability(), yarn.GPU) != 1 {
			t.Errorf("allocate %d asks %v, want 3 containers of 1 %s under an allocation request id above %d", i, ask, yarn.GPU, lastID)
		}
		if len(ask) > 0 {
			lastID = ask[0].GetAllocationRequestId()
		}
	}
	if got := reqs[2].GetResponseId(); got != 1 {
		t.Errorf("allocate 2 sent responseId %d, want the RM's 1 echoed", got)
	}
}

// Each profile's asks go to YARN at a priority of the profile's own, each
// ask under its own allocation request id, with the profile's capability,
// GPUs only where it has them, and the node label; the container the RM
// allocates for an id comes back to the core with that id, named as the
// blacklist takes its node.
func TestAsksAndContainersKeepProfilesApart(t *testing.T) {
	profiles := []scheduler.Profile{{ID: 0, Cores: 1, MemoryMB: 512}, {ID: 1, Cores: 4, MemoryMB: 4096, GPUs: 2}}
	priorities := map[int32]bool{}
	for i, p := range profiles {
		id := int64(7 + i)
		rr := resourceRequest(core.Ask{ID: id, Profile: p, Count: 3}, "gpu", nil)
		if rr.GetAllocationRequestId() != id {
			t.Errorf("ask %d goes out with allocation request id %d", id, rr.GetAllocationRequestId())
		}
		prio := rr.GetPriority().GetPriority()
		if priorities[prio] || prio < 1 {
			t.Errorf("profile %d asks at priority %d: want one of its own, above the AM's 0", p.ID, prio)
		}
		priorities[prio] = true
		c := rr.GetCapability()
		if c.GetMemory() != p.MemoryMB || c.GetVirtualCores() != int32(p.Cores) || yarn.ResourceValue(c, yarn.GPU) != int64(p.GPUs) ||
			rr.GetNumContainers() != 3 || rr.GetResourceName() != "*" || rr.GetNodeLabelExpression() != "gpu" {
			t.Errorf("profile %+v asks %v", p, rr)
		}
		if hasGPU := slices.ContainsFunc(c.GetResourceValueMap(), func(e *hadoopyarn.ResourceInformationProto) bool { return e.GetKey() == yarn.GPU }); hasGPU != (p.GPUs > 0) {
			t.Errorf("profile %d (%d GPUs) names %s in its capability: %v", p.ID, p.GPUs, yarn.GPU, hasGPU)
		}
		ct := &hadoopyarn.ContainerProto{Id: containerID(5), NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("n1"), Port: proto.Int32(8041)}, AllocationRequestId: proto.Int64(id)}
		for _, portInName := range []bool{false, true} {
			got := allocatedContainer(ct, portInName)
			want := core.Container{ID: "container_1_0001_01_000005", Node: "n1:8041", NodeName: "n1", Ask: id}
			if portInName {
				want.NodeName = "n1:8041"
			}
			if got != want {
				t.Errorf("ask %d's container (port in node name %v) reaches the core as %+v, want %+v", id, portInName, got, want)
			}
		}
	}
	if rr := resourceRequest(core.Ask{ID: 1, Profile: profiles[0], Count: 1}, "", nil); rr.NodeLabelExpression != nil {
		t.Errorf("with no label the ask sets one: %q", rr.GetNodeLabelExpression())
	}
	stray := allocatedContainer(&hadoopyarn.ContainerProto{Id: containerID(6), NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("n1"), Port: proto.Int32(1)}}, false)
	if stray.Ask >= 1 { // the core's ask ids start at 1
		t.Errorf("a container with no allocation request id reaches the core as ask %d's", stray.Ask)
	}
}

// containerID is container n of application 1_0001's first attempt.
func containerID(n int64) *hadoopyarn.ContainerIdProto {
	return &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
		ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1), Id: proto.Int32(1)}}}
}

// A profile's accelerators are asked as their YARN resource types,
// beside its GPUs.
func TestAsksCarryAcceleratorsAsTheirResourceTypes(t *testing.T) {
	accels, err := scheduler.NewAccelerators(map[string]int{"fpga": 2, "tpu": 1})
	if err != nil {
		t.Fatal(err)
	}
	p := scheduler.Profile{ID: 0, Cores: 1, MemoryMB: 512, GPUs: 1, Accels: accels}
	types := map[string]string{"fpga": "yarn.io/fpga", "tpu": "example.com/tpu"}
	ask := core.Ask{ID: 1, Profile: p, Count: 1}
	spread := yarn.Placement{MaxPerNode: 1}
	for name, c := range map[string]*hadoopyarn.ResourceProto{
		"ResourceRequest":   resourceRequest(ask, "", types).GetCapability(),
		"SchedulingRequest": schedulingRequest(ask, spread, types).GetResourceSizing().GetResources(),
	} {
		var got []string
		for _, e := range c.GetResourceValueMap() {
			got = append(got, fmt.Sprintf("%s=%d", e.GetKey(), e.GetValue()))
		}
		if want := []string{"example.com/tpu=1", "yarn.io/fpga=2", "yarn.io/gpu=1"}; !slices.Equal(got, want) {
			t.Errorf("%s: capability's resources %q, want %q", name, got, want)
		}
	}
}
