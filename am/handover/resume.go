package handover

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// TakesOver says whether an AM attempt has earlier attempts' work to
// take over: every attempt after the first does, for an RM that
// restarted names kept containers in later allocates too; the first
// only when the journal says something or YARN kept containers.
func TakesOver(attempt int, st *journal.State, kept int) bool {
	return attempt > 1 || len(st.Jobs) > 0 || kept > 0
}

// SubmitsItsJob says whether an attempt of a one-job application
// (spindle submit's) submits its job: not when it resumed it from the
// journal, whatever its id. An attempt that started it over (its
// journal empty, refused or out of reach) numbered it in its own range,
// not 0, and the journal of a one-job application holds no other job.
func SubmitsItsJob(resumed map[scheduler.JobID]bool) bool { return len(resumed) == 0 }

// Plan is what the caller carries out once Resume has handed the core
// the earlier attempts' work.
type Plan struct {
	// Resumed are the jobs resumed, by id.
	Resumed map[scheduler.JobID]bool
	// Rejoin are the kept executors to dial (kept.go).
	Rejoin []Rejoin
	// Journal are the entries to journal: the executors the journal
	// named whose containers YARN did not keep are gone.
	Journal []journal.Entry
}

// Resume has core c, new, go on with the work st (the journal read)
// describes: each job that had not ended resumed under its ids, with its
// succeeded tasks done and its failures counted; new jobs numbered past
// every job st knew; and the kept containers taken over (Takeover.Kept).
// An error (a job the core or its spec refuses) leaves c half-resumed:
// the caller must start over with a new core (StartOver).
func Resume(c *core.Core, now time.Time, st *journal.State, kept []core.KeptContainer, wait, stop time.Duration) (*Takeover, Plan, error) {
	// What the journal says of the executors as this attempt begins:
	// the journal's own state forgets those it is told are gone (below),
	// which an allocate may yet name (Takeover.Kept).
	t := &Takeover{journalled: maps.Clone(st.Executors), drains: maps.Clone(st.Drains), wait: wait, stop: stop}
	plan := Plan{Resumed: map[scheduler.JobID]bool{}}
	for _, j := range st.Jobs {
		rj, err := ResumedJob(j)
		if err != nil {
			return nil, Plan{}, err
		}
		if err := c.Resume(now, rj); err != nil {
			return nil, Plan{}, err
		}
		plan.Resumed[rj.ID] = true
	}
	if err := c.NumberFrom(scheduler.JobID(st.NextJob), scheduler.StageID(st.NextStage)); err != nil {
		return nil, Plan{}, err
	}
	plan.Rejoin = t.Kept(c, now, kept)
	// The journal forgets the executors YARN did not keep.
	held := map[string]bool{}
	for _, k := range kept {
		held[k.ID] = true
	}
	for _, id := range slices.Sorted(maps.Keys(st.Executors)) {
		if !held[id] {
			plan.Journal = append(plan.Journal, Gone(id))
		}
	}
	return t, plan, nil
}

// StartOver has core c, new, take none of st's work: it numbers its jobs
// past st's, releases every kept container, placing no task until each
// has stopped (core.Core.Kept), and returns the entries that end st's
// jobs in the journal: this attempt runs its job from the start, and a
// session none of the jobs before.
func StartOver(c *core.Core, now time.Time, st *journal.State, kept []core.KeptContainer, stop time.Duration) (*Takeover, []journal.Entry, error) {
	if err := c.NumberFrom(scheduler.JobID(st.NextJob), scheduler.StageID(st.NextStage)); err != nil {
		return nil, nil, err
	}
	// None is adopted: an allocate's later ones are released too.
	t := &Takeover{stop: stop}
	t.Kept(c, now, kept)
	var ended []journal.Entry
	for _, j := range st.Jobs {
		id := j.ID
		ended = append(ended, journal.Entry{JobEnded: &id})
	}
	return t, ended, nil
}

// ResumedJob is a job of the journal as the core resumes it.
func ResumedJob(j *journal.JobState) (core.ResumedJob, error) {
	spec, err := jobspec.Parse(j.Spec, fmt.Sprintf("job %d of the journal", j.ID), jobspec.Defaults{})
	if err != nil {
		return core.ResumedJob{}, err
	}
	rj := core.ResumedJob{ID: scheduler.JobID(j.ID), FirstStage: scheduler.StageID(j.FirstStage), Spec: spec}
	for _, p := range j.StageProfiles {
		rj.StageProfiles = append(rj.StageProfiles, scheduler.ProfileID(p))
	}
	for _, sh := range j.StageShapes {
		p, err := profileOf(sh)
		if err != nil {
			return core.ResumedJob{}, fmt.Errorf("job %d of the journal: %w", j.ID, err)
		}
		rj.StageShapes = append(rj.StageShapes, p)
	}
	if rj.Done, err = doneTasks(j, spec); err != nil {
		return core.ResumedJob{}, err
	}
	for _, t := range slices.SortedFunc(maps.Keys(j.Failed), func(a, b journal.TaskRef) int {
		return cmp.Or(cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Index, b.Index))
	}) {
		rj.Failures = append(rj.Failures, core.TaskFailures{TaskRef: core.TaskRef{StageIndex: t.Stage, Index: t.Index}, Count: j.Failed[t]})
	}
	return rj, nil
}

// doneTasks are job j's succeeded tasks, each within its stage of spec:
// a set from the journal is checked before it is spelt out task by task.
func doneTasks(j *journal.JobState, spec *jobspec.Job) ([]core.TaskRef, error) {
	var done []core.TaskRef
	for stage := range j.Done {
		set := &j.Done[stage]
		if set.Len() == 0 {
			continue
		}
		if stage >= len(spec.Stages) {
			return nil, fmt.Errorf("job %d of the journal: tasks of stage %d done, but its spec has %d stages", j.ID, stage, len(spec.Stages))
		}
		if tasks := spec.Stages[stage].Tasks; set.Last() >= tasks {
			return nil, fmt.Errorf("job %d of the journal: stage %d has %d tasks, and task %d is done", j.ID, stage, tasks, set.Last())
		}
		for i := range set.All() {
			done = append(done, core.TaskRef{StageIndex: stage, Index: i})
		}
	}
	return done, nil
}
