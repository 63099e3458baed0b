package appmaster

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The AM's own node being decommissioned, the AM releases its own
// container and leaves without unregistering (errLeftToNextAttempt), as
// when terminated: YARN starts the next attempt, counting no failure.
func TestTheAMsNodeDecommissionedLeavesTheApplicationToTheNextAttempt(t *testing.T) {
	own := amtest.ContainerID(1)
	node := &hadoopyarn.NodeIdProto{Host: proto.String("nm1"), Port: proto.Int32(8041)}
	f := newUnregistersRM()
	var released atomic.Bool
	f.Respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		for _, id := range req.GetRelease() {
			released.Store(released.Load() || proto.Equal(id, own))
		}
		return &hadoopyarn.AllocateResponseProto{UpdatedNodes: []*hadoopyarn.NodeReportProto{{NodeId: node,
			NodeState: hadoopyarn.NodeStateProto_NS_DECOMMISSIONING.Enum(), DecommissioningTimeout: proto.Uint32(5)}}}
	}
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var handingOver atomic.Bool
	a := appMaster{Job: job, Secret: testSecret, Bind: "127.0.0.1", Host: "127.0.0.1", RM: f.Client(t, f.handle), Log: quiet(),
		Executors: &hadoopyarn.ContainerLaunchContextProto{}, AMContainer: own, AMNode: "nm1:8041", HandingOver: func() { handingOver.Store(true) },
		Core: core.Config{AppID: "application_1_0001", Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 512}},
			Containers: &core.ContainerConfig{Heartbeat: 20 * time.Millisecond, InitialAllocation: 10 * time.Millisecond}}}
	done := make(chan error, 1)
	go func() {
		_, err := runAppMaster(context.Background(), a)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errLeftToNextAttempt) {
			t.Fatalf("runAppMaster: %v; want errLeftToNextAttempt", err)
		}
	case <-time.After(amtest.Patience):
		t.Fatal("the AM did not hand over")
	}
	if n := f.unregistrations(); n != 0 || !released.Load() || !handingOver.Load() {
		t.Errorf("unregistered %d times, its own container released: %v, HandingOver called: %v; want none, true, true", n, released.Load(), handingOver.Load())
	}
}
