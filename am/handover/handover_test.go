package handover

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

var t0 = time.Unix(0, 0)

// A store that fails is tried again after 250ms, then twice as long
// each time up to 4s, and given up on 30s after the first try; a
// refused journal is not tried again.
func TestReadingTriesAgainThenGivesUp(t *testing.T) {
	r := StartReading(t0)
	unreadable := fmt.Errorf("%w: listing it: the NameNode is in safe mode", journal.ErrUnreadable)
	now := t0
	var waits []time.Duration
	for {
		read := r.Tried(now, "app", nil, unreadable)
		if read.Done {
			if !read.GaveUp || read.Known || len(read.State.Jobs) != 0 {
				t.Fatalf("given up as %+v; want GaveUp, not Known, no work", read)
			}
			break
		}
		waits = append(waits, read.Again)
		now = now.Add(read.Again)
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second}
	for sum := 3750 * time.Millisecond; sum < ReadWait; sum += 4 * time.Second {
		want = append(want, min(4*time.Second, ReadWait-sum))
	}
	if !slices.Equal(waits, want) || now.Sub(t0) != ReadWait {
		t.Errorf("waited %v (%v in all); want %v (%v)", waits, now.Sub(t0), want, ReadWait)
	}
	refused := StartReading(t0).Tried(t0, "app", nil, fmt.Errorf("%w: a checksum", journal.ErrRefused))
	if !refused.Done || !refused.Refused || !refused.Known {
		t.Errorf("a refused journal: %+v; want Done, Refused, Known", refused)
	}
	st := journal.NewState("app")
	if read := StartReading(t0).Tried(t0, "app", st, nil); !read.Done || read.State != st || !read.Known || read.Refused || read.GaveUp {
		t.Errorf("a journal read: %+v; want its state, Known", read)
	}
	if errors.Is(unreadable, journal.ErrRefused) {
		t.Fatal("the test's unreadable error reads as refused")
	}
}

func newCore(t *testing.T) *core.Core {
	t.Helper()
	c, err := core.New(core.Config{AMAttempt: 2, Session: true, Profiles: []scheduler.Profile{{ID: 0, Cores: 2, MemoryMB: 1024, GPUs: 2}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 2}, MaxGPUsPerNode: 4}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// journalState is a journal of one job (id 7, tasks 0 and 2 of its
// stage done, task 1 failed once) and two executors, c1 and c2.
func journalState(t *testing.T) *journal.State {
	t.Helper()
	spec, err := jobspec.Short("j", 3, []string{"true"}, jobspec.Defaults{CPUs: 1, GPUs: 1, MaxAttempts: 4})
	if err != nil {
		t.Fatal(err)
	}
	data, err := spec.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	st := journal.NewState("app")
	for _, e := range []journal.Entry{
		{NextJob: ptr(7)},
		{Job: &journal.Job{ID: 7, FirstStage: 20, Spec: data, StageProfiles: []int{0}}},
		journal.TaskDone(7, 0, 0), journal.TaskDone(7, 0, 2),
		{TaskFailed: &journal.TaskRef{Job: 7, Stage: 0, Index: 1}},
		{Executor: &journal.Executor{Container: "c1", Address: "h1:1", Node: "n1:1", NodeName: "n1", GPUIndices: []string{"0", "1"}}},
		{Executor: &journal.Executor{Container: "c2", Address: "h2:1", Node: "n2:1", NodeName: "n2", GPUIndices: []string{"0", "1"}}},
	} {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func ptr(i int) *int { return &i }

// Resume resumes the journal's jobs with their done tasks, dials the
// kept executors the journal names, and journals as gone those YARN
// did not keep; a kept container it does not name is released.
func TestResumeAdoptsWhatTheJournalNames(t *testing.T) {
	c := newCore(t)
	kept := []core.KeptContainer{{ID: "c1", Node: "n1:1", NodeName: "n1"}, {ID: "c3", Node: "n3:1", NodeName: "n3"}}
	tk, plan, err := Resume(c, t0, journalState(t), kept, 30*time.Second, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Resumed[7] || len(plan.Resumed) != 1 {
		t.Errorf("resumed %v; want job 7", plan.Resumed)
	}
	if want := []Rejoin{{Container: "c1", Address: "h1:1"}}; !slices.Equal(plan.Rejoin, want) {
		t.Errorf("dials %v; want %v", plan.Rejoin, want)
	}
	if len(plan.Journal) != 1 || plan.Journal[0].ExecutorGone != "c2" {
		t.Errorf("journals %+v; want c2 gone", plan.Journal)
	}
	if p, ok := c.Job(t0, 7); !ok || p.Succeeded != 2 {
		t.Errorf("job 7 in the core: %+v; want 2 tasks succeeded", p)
	}
	rd := c.Ready(t0)
	if !slices.Equal(rd.StopKept, []string{"c3"}) || len(rd.Launches) != 0 {
		t.Errorf("stops %v and launches %d; want c3 stopped (unjournalled) and nothing placed", rd.StopKept, len(rd.Launches))
	}
	// Named in a later allocate (an RM that restarted), c2 is dialled
	// by what the journal said as this attempt began.
	if dial := tk.Kept(c, t0, []core.KeptContainer{{ID: "c2", Node: "n2:1", NodeName: "n2"}}); len(dial) != 1 || dial[0].Address != "h2:1" {
		t.Errorf("c2 named later: dials %v; want h2:1", dial)
	}
}

// StartOver ends the journal's jobs, adopts nothing and numbers its new
// jobs past them.
func TestStartOverEndsTheJournalsJobs(t *testing.T) {
	c := newCore(t)
	tk, ended, err := StartOver(c, t0, journalState(t), []core.KeptContainer{{ID: "c1", Node: "n1:1", NodeName: "n1"}}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(ended) != 1 || ended[0].JobEnded == nil || *ended[0].JobEnded != 7 {
		t.Errorf("journals %+v; want job 7 ended", ended)
	}
	if rd := c.Ready(t0); !slices.Equal(rd.StopKept, []string{"c1"}) {
		t.Errorf("stops %v; want c1, which it does not adopt", rd.StopKept)
	}
	if dial := tk.Kept(c, t0, []core.KeptContainer{{ID: "c2", Node: "n2:1", NodeName: "n2"}}); len(dial) != 0 {
		t.Errorf("started over, it dials %v", dial)
	}
	spec, _ := jobspec.Short("next", 1, []string{"true"}, jobspec.Defaults{CPUs: 1, GPUs: 1, MaxAttempts: 1})
	if id, err := c.Submit(t0, spec, nil); err != nil || id != core.IDsPerAMAttempt {
		t.Errorf("the next job is %d (%v); want %d, attempt 2's first", id, err, core.IDsPerAMAttempt)
	}
}

// A one-job application's attempt submits its job unless it resumed it,
// whatever id it resumed it under: an attempt that started the work over
// numbered it in its own range (the fault simulator's seed 453: attempt
// 1 died before its first segment, attempt 2 submitted the job as job
// 1,000,000,000, and attempt 3, resuming that, submitted it again).
func TestAOneJobApplicationSubmitsItsJobOnce(t *testing.T) {
	for _, c := range []struct {
		resumed map[scheduler.JobID]bool
		want    bool
	}{
		{nil, true},
		{map[scheduler.JobID]bool{}, true},
		{map[scheduler.JobID]bool{0: true}, false},
		{map[scheduler.JobID]bool{core.IDsPerAMAttempt: true}, false},
	} {
		if got := SubmitsItsJob(c.resumed); got != c.want {
			t.Errorf("resumed %v: submits %v; want %v", c.resumed, got, c.want)
		}
	}
}
