package am_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// An executor the journal says was draining takes no task in the next
// attempt: once it has registered again with the task it still runs,
// that task is told to checkpoint and stop (its deadline less the grace
// period has passed), and its container is released as the task ends,
// not given the job's other task.
func TestAKeptDrainingExecutorGoesOnDraining(t *testing.T) {
	kept, id := keptContainer(2)
	f := &amtest.FakeRM{Respond: func(int, *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		return &hadoopyarn.AllocateResponseProto{}
	}}
	st := journalOf(t, 2, map[string]string{id: "nm1:4000"})
	if err := st.Apply(journal.Entry{Drain: &journal.Drain{Container: id, Reason: "its node is being decommissioned",
		ReleaseBy: time.Now().Add(30 * time.Second).UnixMilli(), Decommissioning: true}}); err != nil {
		t.Fatal(err)
	}
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"), amtest.WithYARN(f), amtest.WithCore(func(c *core.Config) { c.DrainGrace = time.Minute }),
		amtest.WithConfig(func(c *am.Config) {
			c.Resume = &am.Resumption{State: st, Kept: []*hadoopyarn.ContainerProto{kept}, Wait: time.Minute, Stop: time.Minute,
				Dial: func(context.Context, string) (*wire.Conn, error) {
					return nil, errors.New("the test's executor dials in itself")
				}}
		}))
	running := &wire.RunningAttempt{StageId: 0, TaskIndex: 0}
	e := d.Register(t, id, amtest.Cores(2), amtest.GPUs("0"), amtest.Rejoining(running))
	e.Registered(t)
	e.Report(t)
	if dr := e.Drain(t); dr.GetReason() != "its node is being decommissioned" {
		t.Fatalf("drain %v; want the adopted task told, its node being decommissioned", dr)
	}
	e.Report(t, amtest.Killed(running))
	d.Await(t, "the container released", func(am.Turn) bool {
		for _, req := range f.Requests() {
			for _, r := range req.GetRelease() {
				if yarn.ContainerID(r) == id {
					return true
				}
			}
		}
		return false
	})
	// Given a task, the executor would run it on: nothing reports it.
	d.AwaitStatus(t, "both tasks waiting, none on the draining executor", func(st core.Status) bool { return st.Running == 0 && st.Pending == 2 })
}
