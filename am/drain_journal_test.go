package am_test

import (
	"sync/atomic"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// An executor that begins draining is journalled so, with its plan's
// deadline as an absolute time, for the AM's next attempt to go on
// draining it (issue 33, point 8).
func TestDrainsAreJournalled(t *testing.T) {
	nm := startNM(t)
	ct := &hadoopyarn.ContainerProto{Id: amtest.ContainerID(2), NodeId: nm.node}
	id := yarn.ContainerID(ct.Id)
	f := &amtest.FakeRM{}
	var preempt atomic.Bool
	f.Respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch {
		case n == 0:
			ct.AllocationRequestId = proto.Int64(req.GetAsk()[0].GetAllocationRequestId())
			return &hadoopyarn.AllocateResponseProto{AllocatedContainers: []*hadoopyarn.ContainerProto{ct}}
		case preempt.Load():
			return &hadoopyarn.AllocateResponseProto{Preempt: &hadoopyarn.PreemptionMessageProto{
				Contract: &hadoopyarn.PreemptionContractProto{Container: []*hadoopyarn.PreemptionContainerProto{{Id: ct.Id}}}}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}
	st := journal.NewState("application_1_0001")
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
	tokens := func(y *am.YARN) { y.Launcher.AddTokens([]*hadoopyarn.NMTokenProto{nm.token}) }
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(f, tokens), amtest.WithCore(func(c *core.Config) { c.DrainGrace = time.Minute }),
		amtest.WithConfig(func(c *am.Config) { c.Journal = w }))
	d.Await(t, "the container allocated", func(am.Turn) bool { return len(f.Requests()) > 1 })
	e := d.Register(t, id, amtest.Cores(2), amtest.GPUs("0"), amtest.RejoinAddress("nm1:4000"))
	e.Registered(t)
	e.Launches(t)
	before := time.Now()
	d.Await(t, "the RM set to preempt the container", func(am.Turn) bool { preempt.Store(true); return true })
	e.Drain(t)
	var got journal.Drain
	d.Await(t, "the drain journalled", func(am.Turn) bool { got = st.Drains[id]; return got.Container != "" })
	by := time.UnixMilli(got.ReleaseBy)
	if got.Reason != "preempted by YARN" || got.Decommissioning || by.Before(before.Add(time.Minute-time.Second)) || by.After(time.Now().Add(time.Minute)) {
		t.Errorf("journalled %+v (release by %v); want a preemption, released a minute after it was heard", got, by)
	}
}
