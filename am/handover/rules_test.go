package handover

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The first attempt takes over only what there is: a journal with jobs
// or containers YARN kept; every later one does, for an RM that
// restarted may name kept containers in a later allocate.
func TestTakesOverWhatThereIs(t *testing.T) {
	empty, full := journal.NewState("app"), journalState(t)
	for _, c := range []struct {
		attempt, kept int
		st            *journal.State
		want          bool
	}{
		{1, 0, empty, false},
		{1, 2, empty, true},
		{1, 0, full, true},
		{2, 0, empty, true},
	} {
		if got := TakesOver(c.attempt, c.st, c.kept); got != c.want {
			t.Errorf("attempt %d, %d jobs, %d kept: takes over %v; want %v", c.attempt, len(c.st.Jobs), c.kept, got, c.want)
		}
	}
}

// A released kept container holds placement for its executor's rejoin
// timeout, its tasks' time to stop, and the slack of both.
func TestStopWaitIsTheRejoinTimeoutAndTheTasksGrace(t *testing.T) {
	if got, want := StopWait(60*time.Second, 2*time.Second), 65*time.Second; got != want {
		t.Errorf("StopWait(60s, 2s) = %v; want %v", got, want)
	}
}

// A journal whose done tasks lie outside its job's spec is refused: no
// task past its stage's last, no stage past the spec's.
func TestAResumedJobsDoneTasksLieInItsSpec(t *testing.T) {
	for _, c := range []struct {
		stage, index int
		ok           bool
	}{{0, 2, true}, {0, 3, false}, {1, 0, false}} {
		st := journalState(t) // job 7: one stage of 3 tasks
		st.Jobs[0].Done = append(st.Jobs[0].Done, journal.Tasks{})
		st.Jobs[0].Done[c.stage].Add(c.index)
		_, err := ResumedJob(st.Jobs[0])
		if (err == nil) != c.ok {
			t.Errorf("task %d of stage %d done: %v; want ok %v", c.index, c.stage, err, c.ok)
		}
	}
}

// An executor is journalled with its rejoin address, or not at all:
// without one no next attempt can reach it.
func TestAnExecutorIsJournalledWithItsAddress(t *testing.T) {
	c := newCore(t)
	if _, _, err := Resume(c, t0, journalState(t), []core.KeptContainer{{ID: "c1", Node: "n1:1", NodeName: "n1"}}, 30*time.Second, time.Minute); err != nil {
		t.Fatal(err)
	}
	if e, ok := Executor(c, "c1", "h1:2"); !ok || e.Executor == nil || e.Executor.Address != "h1:2" || e.Executor.Container != "c1" {
		t.Errorf("c1 at h1:2: %+v, %v; want its entry", e, ok)
	}
	if _, ok := Executor(c, "c1", ""); ok {
		t.Error("c1 without an address is journalled")
	}
	if _, ok := Executor(c, "c9", "h9:1"); ok {
		t.Error("an executor of no live container is journalled")
	}
}

// A turn journals the gang tasks whose whole run succeeded, each failure
// counted against a task, and each job that ended, in that order.
func TestATurnJournalsDoneGangsFailuresAndEnds(t *testing.T) {
	task := core.TaskRef{StageIndex: 0, Index: 1}
	rd := &core.Ready{GangTasksDone: []core.JobTask{{Job: 7, TaskRef: core.TaskRef{StageIndex: 0, Index: 2}}},
		TaskFailures: []core.JobTask{{Job: 7, TaskRef: task}}, Finished: []core.Summary{{ID: 7}}}
	got := Turn(rd)
	if len(got) != 3 || got[0].TasksDone == nil || got[1].TaskFailed == nil || *got[1].TaskFailed != (journal.TaskRef{Job: 7, Stage: 0, Index: 1}) ||
		got[2].JobEnded == nil || *got[2].JobEnded != 7 {
		t.Errorf("journals %+v; want task 2 done, task 1 failed, job 7 ended", got)
	}
}

// A success is journalled as the core hears it, but a gang task's only
// once its whole gang's run has succeeded (Turn's GangTasksDone): a
// gang that fails runs every task again.
func TestAGangTasksSuccessWaitsForItsGang(t *testing.T) {
	c := newCore(t)
	for _, gang := range []bool{false, true} {
		spec, err := jobspec.Short("j", 2, []string{"true"}, jobspec.Defaults{CPUs: 1, GPUs: 1, MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		spec.Stages[0].Gang = gang
		id, err := c.Submit(t0, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := core.TaskStatus{Attempt: scheduler.AttemptID{Task: scheduler.TaskID{Stage: c.JobStages(id)[0], Index: 1}}, State: core.TaskSucceeded}
		if got := Succeeded(c, []core.TaskStatus{st}); (len(got) == 1) == gang {
			t.Errorf("gang %v: a success journals %+v", gang, got)
		}
	}
}
