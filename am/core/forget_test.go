package core_test

import (
	"runtime"
	"testing"
	"weak"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session keeps an ended job's line in its history, nothing more: once
// the job has ended (here cancelled with its tasks running, which report
// killed), neither the core nor its scheduler refers to the job's spec,
// which the core's job held.
func TestAnEndedJobKeepsItsLineNotItsSpec(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Register(t, "e1", 2)
	spec, err := jobspec.Short("big", 1000, []string{"sleep", "600"}, jobspec.Defaults{CPUs: 1, MaxAttempts: 4})
	if err != nil {
		t.Fatal(err)
	}
	id, err := h.Core.Submit(h.Now, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	gone := weak.Make(spec)
	spec = nil
	rd := h.Ready()
	if len(rd.Launches) != 2 {
		t.Fatalf("%d launches, want 2", len(rd.Launches))
	}
	if err := h.Core.Cancel(h.Now, id, "enough"); err != nil {
		t.Fatal(err)
	}
	h.Ready()
	for _, l := range rd.Launches {
		h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskKilled}})
	}
	h.Ready()
	runtime.GC()
	runtime.GC()
	if gone.Value() != nil {
		t.Error("the cancelled job's spec is still reachable")
	}
	if info, ok := h.Core.Job(h.Now, id); !ok || info.State != core.JobCancelled || info.Tasks != 1000 {
		t.Errorf("job %d: %+v, %v; want it listed, CANCELLED, 1000 tasks", id, info, ok)
	}
}
