package core_test

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session lists the last JobHistory jobs that ended: at the limit all
// of them, one past it the oldest forgotten; running jobs always.
func TestJobsRememberTheLastJobHistoryEnded(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Core.Register(h.Now, core.Registration{Executor: "e1", Host: "h1", Cores: 1}); err != nil {
		t.Fatal(err)
	}
	run := func(n int) {
		for i := 0; i < n; i++ {
			job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Core.Submit(h.Now, job, nil); err != nil {
				t.Fatal(err)
			}
			rd := h.Ready()
			if len(rd.Launches) != 1 {
				t.Fatalf("job %d: %d launches", i, len(rd.Launches))
			}
			h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
			if rd := h.Ready(); len(rd.Finished) != 1 {
				t.Fatalf("job %d did not finish", i)
			}
		}
	}
	run(core.JobHistory)
	jobs := h.Core.Jobs(h.Now)
	if len(jobs) != core.JobHistory || jobs[0].ID != 0 || jobs[len(jobs)-1].State != core.JobSucceeded {
		t.Fatalf("after %d jobs: %d listed, first %d", core.JobHistory, len(jobs), jobs[0].ID)
	}
	run(1)
	jobs = h.Core.Jobs(h.Now)
	if len(jobs) != core.JobHistory || jobs[0].ID != 1 || jobs[len(jobs)-1].ID != core.JobHistory {
		t.Fatalf("after %d jobs: %d listed, from %d to %d; want %d, from 1", core.JobHistory+1, len(jobs), jobs[0].ID, jobs[len(jobs)-1].ID, core.JobHistory)
	}
	if _, ok := h.Core.Job(h.Now, 0); ok {
		t.Error("job 0, forgotten, is still found")
	}
	if info, ok := h.Core.Job(h.Now, 1); !ok || info.State != core.JobSucceeded || info.Succeeded != 1 {
		t.Errorf("job 1: %+v, %v", info, ok)
	}
}

// Jobs lists in submission order, whichever ended first.
func TestJobsInSubmissionOrder(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Core.Register(h.Now, core.Registration{Executor: "e1", Host: "h1", Cores: 2}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"slow", "quick"} {
		job, err := jobspec.Short(name, 1, []string{name}, jobspec.Defaults{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Core.Submit(h.Now, job, nil); err != nil {
			t.Fatal(err)
		}
	}
	rd := h.Ready()
	for _, l := range rd.Launches {
		if l.Job == "quick" {
			h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskSucceeded}})
		}
	}
	h.Ready()
	jobs := h.Core.Jobs(h.Now)
	if len(jobs) != 2 || jobs[0].Name != "slow" || jobs[0].State != core.JobRunning || jobs[1].Name != "quick" || jobs[1].State != core.JobSucceeded {
		t.Errorf("jobs %+v: want slow (running), then quick (ended)", jobs)
	}
}
