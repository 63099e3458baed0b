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
	h := newSession(t, 2, core.SessionLimits{})
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

// A job's summary names the first OutputCutListed output files cut to
// their tail and counts the rest, however many tasks the job has.
func TestSummaryListsTheFirstCutFilesAndCountsTheRest(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	const tasks = core.OutputCutListed/2 + 3 // stdout and stderr cut: 3 tasks' 6 files past the list
	h.Submit(t, "loud", tasks, jobspec.Defaults{CPUs: 1}, "true")
	var sum core.Summary
	for i := 0; i < tasks; i++ {
		rd := h.Ready()
		if len(rd.Launches) != 1 {
			t.Fatalf("task %d: %d launches", i, len(rd.Launches))
		}
		h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded, StdoutCut: true, StderrCut: true}})
	}
	for _, f := range h.Ready().Finished {
		sum = f
	}
	if len(sum.OutputCut) != core.OutputCutListed || sum.OutputCutMore != 6 {
		t.Fatalf("%d cut files listed, %d more; want %d and 6", len(sum.OutputCut), sum.OutputCutMore, core.OutputCutListed)
	}
	if sum.OutputCut[0] != "e1/job0-stage0-task0-attempt0.stdout" || sum.OutputCut[1] != "e1/job0-stage0-task0-attempt0.stderr" {
		t.Errorf("the list starts %v", sum.OutputCut[:2])
	}
}

// A session keeps no list of the executors that ever registered: with
// executors coming and going for weeks it would only grow, and a session
// job's summary, which alone would name them, is its client's, who is
// told its job's own figures. A one-job application's summary names them.
func TestASessionKeepsNoListOfItsExecutors(t *testing.T) {
	for _, session := range []bool{false, true} {
		h, err := coretest.New(core.Config{Session: session, Profiles: []scheduler.Profile{{Cores: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []scheduler.ExecutorID{"e1", "e2", "e3"} {
			h.Register(t, id, 1)
		}
		h.Submit(t, "j", 1, jobspec.Defaults{}, "true")
		rd := h.Ready()
		h.Core.Statuses(h.Now, rd.Launches[0].Executor, []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
		rd = h.Ready()
		if len(rd.Finished) != 1 {
			t.Fatalf("session %v: %d jobs finished, want 1", session, len(rd.Finished))
		}
		sum := rd.Finished[0]
		if want := map[bool]int{false: 3, true: 0}[session]; len(sum.Executors) != want || len(sum.Registered) != want {
			t.Errorf("session %v: the summary names %d executors and %d registrations, want %d", session, len(sum.Executors), len(sum.Registered), want)
		}
	}
}
