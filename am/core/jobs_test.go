package core_test

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
)

// A session lists the last JobHistory jobs that ended: at the limit all
// of them, one past it the oldest forgotten; running jobs always.
func TestJobsRememberTheLastJobHistoryEnded(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	run := func(n int) {
		for i := 0; i < n; i++ {
			h.Submit(t, "j", 1, jobspec.Defaults{}, "true")
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
	h := newSession(t, 2, core.SessionLimits{})
	h.Register(t, "e1", 2)
	for _, name := range []string{"slow", "quick"} {
		h.Submit(t, name, 1, jobspec.Defaults{}, name)
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

// Jobs says, for each running job, why its pending tasks wait, in the
// scheduler's words: `spindle jobs` and the UI show it.
func TestJobsSayWhyEachRunningJobWaits(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	h.Submit(t, "first", 1, jobspec.Defaults{}, "sleep 60")
	h.Submit(t, "second", 2, jobspec.Defaults{}, "sleep 60")
	h.Ready()
	jobs := h.Core.Jobs(h.Now)
	if len(jobs) != 2 || jobs[0].Waiting != "" {
		t.Fatalf("the first job, running its one task, waits for nothing: %+v", jobs)
	}
	if want := "main: 2 waiting: 0/1 executors can take a task: 1 insufficient cpu"; jobs[1].Waiting != want {
		t.Errorf("the second job waits: %q, want %q", jobs[1].Waiting, want)
	}
}
