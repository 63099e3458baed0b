package am_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The AM's own node being decommissioned with a timeout shorter than
// core.HandoverMargin, the AM hands the application over at once (issue
// 33, point 8): the journal is written out whole first, with the
// executor of the node, draining, and its drain; then an allocate
// releases the AM's own container, and once the RM has answered it Run
// returns ErrHandedOver, the application not ended (the core's
// testdata/handover.txt shows no executor told to stop).
func TestTheAMHandsOverWhenItsNodeIsDecommissioned(t *testing.T) {
	nm := startNM(t)
	ct := &hadoopyarn.ContainerProto{Id: amtest.ContainerID(2), NodeId: nm.node}
	exec, own := yarn.ContainerID(ct.Id), amtest.ContainerID(1)
	store := &memStore{segments: map[string][]byte{}}
	var decommission, journalledFirst atomic.Bool
	f := &amtest.FakeRM{}
	f.Respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		for _, id := range req.GetRelease() {
			if proto.Equal(id, own) {
				// The journal must be whole before the AM's container goes.
				st, err := journal.Load(context.Background(), store, "application_1_0001")
				journalledFirst.Store(err == nil && st.Drains[exec].Decommissioning)
			}
		}
		switch {
		case n == 0:
			ct.AllocationRequestId = proto.Int64(req.GetAsk()[0].GetAllocationRequestId())
			return &hadoopyarn.AllocateResponseProto{AllocatedContainers: []*hadoopyarn.ContainerProto{ct}}
		case decommission.Load():
			return &hadoopyarn.AllocateResponseProto{UpdatedNodes: []*hadoopyarn.NodeReportProto{{NodeId: nm.node,
				NodeState: hadoopyarn.NodeStateProto_NS_DECOMMISSIONING.Enum(), DecommissioningTimeout: proto.Uint32(10)}}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(journal.WriterConfig{Store: store, Attempt: 1, Log: log}, journal.NewState("application_1_0001"))
	ctx, stop := context.WithCancel(context.Background())
	written := make(chan struct{})
	go func() { defer close(written); w.Run(ctx) }()
	t.Cleanup(func() { stop(); <-written })
	var handingOver atomic.Bool
	yarnSide := func(y *am.YARN) { y.Launcher.AddTokens([]*hadoopyarn.NMTokenProto{nm.token}); y.AMContainer = own }
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"), amtest.WithYARN(f, yarnSide),
		amtest.WithCore(func(c *core.Config) {
			c.Containers.AMContainer, c.Containers.AMNode = yarn.ContainerID(own), nodemanager.NodeID(nm.node)
		}),
		amtest.WithConfig(func(c *am.Config) { c.Journal, c.HandingOver = w, func() { handingOver.Store(true) } }))
	d.Await(t, "the container allocated", func(am.Turn) bool { return len(f.Requests()) > 1 })
	e := d.Register(t, exec, amtest.Cores(2), amtest.GPUs("0"), amtest.RejoinAddress("nm1:4000"))
	e.Registered(t)
	e.Launches(t)
	decommission.Store(true)
	res := d.Wait(t)
	if !errors.Is(res.Err, am.ErrHandedOver) || res.Final != (core.Final{}) {
		t.Fatalf("Run ended with %v, %+v; want ErrHandedOver and no final state to unregister with", res.Err, res.Final)
	}
	if !handingOver.Load() || !journalledFirst.Load() {
		t.Errorf("HandingOver called: %v; the journal held the node's drain as the AM's container was released: %v; want both", handingOver.Load(), journalledFirst.Load())
	}
}

// memStore is a journal store in memory.
type memStore struct {
	mu       sync.Mutex
	segments map[string][]byte
}

func (m *memStore) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Collect(maps.Keys(m.segments)), nil
}

func (m *memStore) Read(_ context.Context, name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.segments[name], nil
}

func (m *memStore) Write(_ context.Context, name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.segments[name] = data
	return nil
}

func (m *memStore) Remove(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.segments, name)
	return nil
}
