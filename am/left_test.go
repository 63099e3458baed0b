package am_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// An AM that leaves the application to its next attempt (terminated
// before its last) carries nothing more out: an RM that already ended
// the attempt answers as one that is done with it, which the loop would
// otherwise carry out (the application failed, its tasks stopped) on
// the process's way out.
func TestALeavingAMCarriesNothingMoreOut(t *testing.T) {
	nm := startNM(t)
	ct := &hadoopyarn.ContainerProto{Id: amtest.ContainerID(2), NodeId: nm.node}
	var gone atomic.Bool
	f := &amtest.FakeRM{Respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch {
		case gone.Load():
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		case n == 0:
			ct.AllocationRequestId = proto.Int64(req.GetAsk()[0].GetAllocationRequestId())
			return &hadoopyarn.AllocateResponseProto{AllocatedContainers: []*hadoopyarn.ContainerProto{ct}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	left := make(chan struct{})
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"), amtest.WithYARN(f, func(y *am.YARN) { y.Launcher.AddTokens([]*hadoopyarn.NMTokenProto{nm.token}) }),
		amtest.WithConfig(func(c *am.Config) { c.Left = left }))
	d.Await(t, "the container allocated", func(am.Turn) bool { return len(f.Requests()) > 1 })
	e := d.Register(t, yarn.ContainerID(ct.Id), amtest.Cores(2), amtest.GPUs("0"))
	e.Registered(t)
	e.Launches(t)
	close(left)
	gone.Store(true)
	res := d.Wait(t)
	if !errors.Is(res.Err, am.ErrLeft) || res.Final != (core.Final{}) {
		t.Fatalf("Run ended with %v, %+v; want ErrLeft and no final state to unregister with", res.Err, res.Final)
	}
}
