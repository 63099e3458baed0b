package am_test

import (
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// shutdown answers every allocate with AM_SHUTDOWN: the application ends
// after its first.
func shutdown(int, *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
	return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
}

// A stage shape an earlier attempt made comes back from the journal with
// its id and its shape: the next attempt asks for it, at its profile's
// priority, as large as the journal says (4096 MiB, where the stage
// alone, of 1 GiB, would derive 1024).
func TestResumedStageShapeComesBackFromTheJournal(t *testing.T) {
	f := &amtest.FakeRM{Respond: shutdown}
	spec, err := jobspec.Parse([]byte("name: wide\nstages:\n  - {name: wide, tasks: 1, resources: {cpus: 1, memory: 1g}, command: \"true\"}\n"), "spec", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := spec.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	st := journal.NewState("application_1795251528476_0003")
	e := journal.Entry{Job: &journal.Job{ID: 0, Spec: data, StageProfiles: []int{1}, StageShapes: []journal.Shape{{Cores: 2, MemoryMB: 4096}}}}
	if err := st.Apply(e); err != nil {
		t.Fatal(err)
	}
	log, _ := logtest.NewNullLogger()
	amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(f), amtest.WithConfig(func(c *am.Config) {
		c.Journal = journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
		c.Resume = &am.Resumption{State: st}
	})).Wait(t)
	reqs := f.Requests()
	if len(reqs) == 0 {
		t.Fatal("no allocate")
	}
	var shape *hadoopyarn.ResourceRequestProto
	for _, a := range reqs[0].GetAsk() {
		if a.GetPriority().GetPriority() == am.Priority(1) {
			shape = a
		}
	}
	if shape == nil || shape.GetCapability().GetMemory() != 4096 || shape.GetCapability().GetVirtualCores() != 2 || shape.GetNumContainers() != 1 {
		t.Fatalf("the first allocate asks %v; want one container of profile 1's journalled 4096 MiB and 2 vcores", reqs[0].GetAsk())
	}
}
