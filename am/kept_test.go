package am_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// keptApp is the application of the takeover tests' kept containers.
const keptApp = "application_1795251528476_0003"

// keptContainer is container n of keptApp's first attempt, on nm1.
func keptContainer(n int64) (*hadoopyarn.ContainerProto, string) {
	ct := &hadoopyarn.ContainerProto{NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("nm1"), Port: proto.Int32(8041)},
		Id: &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
			ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795251528476), Id: proto.Int32(3)}}}}
	return ct, "container_1795251528476_0003_01_00000" + string(rune('0'+n))
}

// journalOf is a journal of job 0 (tasks of amtest.Tasks) and of the
// executors of containers, each with its rejoin address.
func journalOf(t *testing.T, tasks int, executors map[string]string) *journal.State {
	t.Helper()
	data, err := amtest.Tasks(t, tasks, "true").MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	st := journal.NewState(keptApp)
	if err := st.Apply(journal.Entry{Job: &journal.Job{ID: 0, Spec: data, StageProfiles: []int{0}}}); err != nil {
		t.Fatal(err)
	}
	for id, addr := range executors {
		x := &journal.Executor{Container: id, Address: addr, Node: "nm1:8041", NodeName: "nm1", GPUIndices: []string{string(rune('0' + len(st.Executors)))}}
		if err := st.Apply(journal.Entry{Executor: x}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// Containers of an earlier attempt that an allocate names, as an RM that
// restarted learns of them from its NodeManagers, are taken over as
// those the registration named: the journal's executor is dialled and
// adopted with the task it still runs, not released (issue 33, point 5),
// though the journal, told at the start that YARN had not kept it,
// forgot it meanwhile; and no task starts elsewhere while it is awaited.
func TestContainersNamedLaterAreAdopted(t *testing.T) {
	first, firstID := keptContainer(2)
	later, laterID := keptContainer(3)
	f := &amtest.FakeRM{Respond: func(n int, _ *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n == 0 {
			return &hadoopyarn.AllocateResponseProto{ContainersFromPreviousAttempts: []*hadoopyarn.ContainerProto{later}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	st := journalOf(t, 2, map[string]string{firstID: "nm1:4000", laterID: "nm1:4001"})
	dialled := make(chan string, 64)
	log, _ := logtest.NewNullLogger()
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"), amtest.WithYARN(f), amtest.WithConfig(func(c *am.Config) {
		c.Journal = journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
		c.Resume = &am.Resumption{State: st, Kept: []*hadoopyarn.ContainerProto{first}, Wait: time.Minute, Stop: time.Minute,
			Dial: func(ctx context.Context, addr string) (*wire.Conn, error) {
				select {
				case dialled <- addr:
				default:
				}
				return nil, errors.New("the test's executors dial in themselves")
			}}
	}))
	awaitDial(t, dialled, "nm1:4001")
	e1 := d.Register(t, firstID, amtest.Cores(2), amtest.GPUs("0"), amtest.Rejoining(&wire.RunningAttempt{StageId: 0, TaskIndex: 0}))
	e1.Registered(t)
	e1.Report(t) // nothing ended while it had no driver
	e2 := d.Register(t, laterID, amtest.Cores(2), amtest.GPUs("1"), amtest.Rejoining(&wire.RunningAttempt{StageId: 0, TaskIndex: 1}))
	e2.Registered(t)
	e2.Report(t)
	d.AwaitStatus(t, "both kept executors' tasks adopted", func(st core.Status) bool { return st.Running == 2 })
	e1.Report(t, amtest.Succeeded(&wire.RunningAttempt{StageId: 0, TaskIndex: 0}))
	e2.Report(t, amtest.Succeeded(&wire.RunningAttempt{StageId: 0, TaskIndex: 1}))
	if sum := d.Wait(t).Summary; !sum.Succeeded || sum.Attempts != 2 {
		t.Fatalf("summary %+v; want the job succeeded by the 2 adopted attempts alone", sum)
	}
	for _, req := range f.Requests() {
		if len(req.GetRelease()) > 0 {
			t.Errorf("an allocate released %v; want the kept containers adopted", req.GetRelease())
		}
	}
}

// awaitDial waits for the driver to dial addr.
func awaitDial(t *testing.T, dialled <-chan string, addr string) {
	t.Helper()
	deadline := time.After(amtest.Patience)
	for {
		select {
		case got := <-dialled:
			if got == addr {
				return
			}
		case <-deadline:
			t.Fatalf("the driver never dialled %s", addr)
		}
	}
}

// fakeNM is a NodeManager that starts every container it is asked to
// (nothing runs: the test's executors register themselves) and, asked
// to stop one, says it runs until gone is set, then that it completed.
type fakeNM struct {
	node    *hadoopyarn.NodeIdProto
	token   *hadoopyarn.NMTokenProto
	gone    atomic.Bool
	stopped atomic.Int32 // stopContainers calls
}

func startNM(t *testing.T) *fakeNM {
	n := &fakeNM{}
	srv := &ipctest.Server{Protocol: yarn.ContainerManagementProtocol, Handler: func(method string, _ []byte) (proto.Message, error) {
		switch method {
		case "stopContainers":
			n.stopped.Add(1)
			return &hadoopyarn.StopContainersResponseProto{}, nil
		case "getContainerStatuses":
			state := hadoopyarn.ContainerStateProto_C_RUNNING
			if n.gone.Load() {
				state = hadoopyarn.ContainerStateProto_C_COMPLETE
			}
			return &hadoopyarn.GetContainerStatusesResponseProto{Status: []*hadoopyarn.ContainerStatusProto{{State: state.Enum()}}}, nil
		}
		return &hadoopyarn.StartContainersResponseProto{}, nil
	}}
	host, port, err := net.SplitHostPort(srv.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	n.node = &hadoopyarn.NodeIdProto{Host: proto.String(host), Port: proto.Int32(int32(p))}
	n.token = &hadoopyarn.NMTokenProto{NodeId: n.node, Token: &hadoopcommon.TokenProto{Identifier: []byte{}, Password: []byte{},
		Kind: proto.String(yarn.NMTokenKind), Service: proto.String(host + ":" + port)}}
	return n
}

// With no journal to go on (switched off, a keytab's failed login,
// or one refused), the containers YARN kept are still taken over: they
// are released and their NodeManagers told to stop them, and no task
// starts, on an executor that registered meanwhile too, until the
// NodeManager says the container stopped, for its executor may run the
// very tasks the attempt starts over (issue 33, point 2). The RM's word
// that the container completed, which comes at once, does not do. The
// job run anew takes an id, and its attempts numbers, of AM attempt 2's
// range: no earlier attempt's (point 3).
func TestKeptContainersWithoutAJournalHoldTheTasksUntilGone(t *testing.T) {
	nm := startNM(t)
	kept, _ := keptContainer(2)
	kept.NodeId = nm.node
	f := &amtest.FakeRM{Respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n > 0 {
			return &hadoopyarn.AllocateResponseProto{}
		}
		return &hadoopyarn.AllocateResponseProto{AllocatedContainers: []*hadoopyarn.ContainerProto{{Id: amtest.ContainerID(5), NodeId: nm.node,
			AllocationRequestId: proto.Int64(req.GetAsk()[0].GetAllocationRequestId())}},
			CompletedContainerStatuses: []*hadoopyarn.ContainerStatusProto{{ContainerId: kept.Id, State: hadoopyarn.ContainerStateProto_C_COMPLETE.Enum(),
				ExitStatus: proto.Int32(-100), Diagnostics: proto.String("Container released by application")}}}
	}}
	tokens := func(y *am.YARN) { y.Launcher.AddTokens([]*hadoopyarn.NMTokenProto{nm.token}) }
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"), amtest.WithYARN(f, tokens), amtest.WithCore(func(c *core.Config) { c.AMAttempt = 2 }),
		amtest.WithConfig(func(c *am.Config) {
			c.Resume = &am.Resumption{State: journal.NewState(keptApp), Kept: []*hadoopyarn.ContainerProto{kept}, Wait: time.Minute, Stop: time.Minute}
		}))
	d.Await(t, "the container allocated taken", func(am.Turn) bool { return len(f.Requests()) > 1 })
	e := d.Register(t, "container_1_0001_01_000005", amtest.Cores(2), amtest.GPUs("0"))
	e.Registered(t)
	d.AwaitStatus(t, "the new executor registered, and nothing placed on it", func(st core.Status) bool {
		return len(st.Executors) == 1 && st.Running == 0 && st.Pending == 2
	})
	if rel := f.Requests()[0].GetRelease(); len(rel) != 1 || rel[0].GetId() != 2 {
		t.Fatalf("the first allocate releases %v; want the kept container 2", rel)
	}
	nm.gone.Store(true)
	ls := e.Launches(t)
	if len(ls) != 2 || ls[0].GetJobId() != core.IDsPerAMAttempt || ls[0].GetStageId() != core.IDsPerAMAttempt || ls[0].GetAttempt() != core.AttemptsPerAMAttempt {
		t.Fatalf("launches %v; want 2 of job %d, stage %d, attempt %d", ls, core.IDsPerAMAttempt, core.IDsPerAMAttempt, core.AttemptsPerAMAttempt)
	}
	if nm.stopped.Load() == 0 {
		t.Fatal("the kept container's NodeManager was never told to stop it")
	}
}
