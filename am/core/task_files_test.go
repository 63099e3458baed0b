package core_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A launch names its job by id and its stage by its place in the job's
// spec, which name the attempt's files; the summary's list of cut
// outputs names the same files. In a session the second job's second
// stage is session-wide stage 2, but its files say job 1, stage 1.
func TestLaunchesNameTheJobAndTheStageInIt(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	first := h.Submit(t, "first", 1, jobspec.Defaults{}, "true")
	rd := h.Ready()
	if len(rd.Launches) != 1 || rd.Launches[0].JobID != first || rd.Launches[0].StageIndex != 0 {
		t.Fatalf("first job's launches %+v: want one of job %d, stage 0", rd.Launches, first)
	}
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	h.Ready()

	spec, err := jobspec.Parse([]byte("name: two\nstages:\n  - {name: a, tasks: 1, command: \"true\"}\n  - {name: b, tasks: 1, after: [a], command: \"true\"}\n"), "two.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := h.Core.Submit(h.Now, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd = h.Ready()
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	rd = h.Ready()
	if len(rd.Launches) != 1 {
		t.Fatalf("stage b: %d launches, want 1", len(rd.Launches))
	}
	l := rd.Launches[0]
	if l.JobID != second || second != 1 || l.StageIndex != 1 || l.Stage != "b" || l.Attempt.Task.Stage != 2 {
		t.Fatalf("stage b's launch: job %d, stage index %d (%s), stage id %d; want job 1, index 1 (b), id 2", l.JobID, l.StageIndex, l.Stage, l.Attempt.Task.Stage)
	}
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskSucceeded, StderrCut: true}})
	rd = h.Ready()
	if len(rd.Finished) != 1 || !slices.Equal(rd.Finished[0].OutputCut, []string{"e1/job1-stage1-task0-attempt0.stderr"}) {
		t.Fatalf("finished %+v: want job two with e1/job1-stage1-task0-attempt0.stderr cut", rd.Finished)
	}
}

// A session's ended jobs are in the batch for the executors that ran
// their tasks, who remove ended jobs' task files; a one-job
// application's are not, since its files are what its user reads at the
// end.
func TestSessionSaysWhichJobsEndedToWhom(t *testing.T) {
	for _, session := range []bool{true, false} {
		h, err := coretest.New(core.Config{Session: session, Profiles: []scheduler.Profile{{Cores: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []scheduler.ExecutorID{"e1", "e2", "e3"} {
			h.Register(t, x, 1)
		}
		// a's two tasks go to two executors, b's one to the third.
		h.Submit(t, "a", 2, jobspec.Defaults{}, "true")
		if session {
			h.Submit(t, "b", 1, jobspec.Defaults{}, "true")
		}
		rd := h.Ready()
		ran := map[string][]scheduler.ExecutorID{}
		for _, l := range rd.Launches {
			ran[l.Job] = append(ran[l.Job], l.Executor)
			h.Core.Statuses(h.Now, l.Executor, []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskSucceeded}})
		}
		rd = h.Ready()
		var want []core.JobEnded
		if session {
			want = []core.JobEnded{{Job: 0, Executors: ran["a"]}, {Job: 1, Executors: ran["b"]}}
		}
		if !reflect.DeepEqual(rd.JobsEnded, want) || len(ran["a"]) != 2 || (session && len(ran["b"]) != 1) {
			t.Errorf("session %v, tasks ran on %v: JobsEnded %+v, want %+v", session, ran, rd.JobsEnded, want)
		}
		if rd := h.Ready(); len(rd.JobsEnded) != 0 {
			t.Errorf("session %v: the next batch says again %v", session, rd.JobsEnded)
		}
	}
}

// A job names each executor that ran its tasks once, in the order of
// their first launch: two tasks one after the other on e1, and one whose
// attempt on e1 was lost and ran again on e2, make [e1 e2].
func TestJobsEndedNameEachExecutorOnce(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	h.Submit(t, "a", 3, jobspec.Defaults{}, "true")
	for range 2 {
		rd := h.Ready()
		if len(rd.Launches) != 1 || rd.Launches[0].Executor != "e1" {
			t.Fatalf("launches %+v, want one on e1", rd.Launches)
		}
		h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	}
	if rd := h.Ready(); len(rd.Launches) != 1 {
		t.Fatalf("third task: launches %+v, want one", rd.Launches)
	}
	h.Core.ConnectionEnded(h.Now, "e1", "gone")
	h.Register(t, "e2", 1)
	var rd core.Ready
	for range 100 {
		if rd = h.Ready(); len(rd.Launches) > 0 {
			break
		}
		h.Advance(time.Second)
	}
	if len(rd.Launches) != 1 || rd.Launches[0].Executor != "e2" {
		t.Fatalf("the lost attempt's rerun: %+v, want it on e2", rd.Launches)
	}
	h.Core.Statuses(h.Now, "e2", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	rd = h.Ready()
	want := []core.JobEnded{{Job: 0, Executors: []scheduler.ExecutorID{"e1", "e2"}}}
	if !reflect.DeepEqual(rd.JobsEnded, want) {
		t.Errorf("JobsEnded %+v, want %+v", rd.JobsEnded, want)
	}
}

// A job that ran no task (cancelled while it waited) has no files
// anywhere: it ends without a word to any executor.
func TestAJobThatRanNothingNamesNoExecutor(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	h.Register(t, "e1", 1)
	id := h.Submit(t, "queued", 1, jobspec.Defaults{}, "true")
	if err := h.Core.Cancel(h.Now, id, "test"); err != nil {
		t.Fatal(err)
	}
	rd := h.Ready()
	if len(rd.Finished) != 1 || len(rd.JobsEnded) != 0 {
		t.Errorf("%d finished, JobsEnded %+v; want 1 and none", len(rd.Finished), rd.JobsEnded)
	}
}
