package am

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Resumption is what an AM attempt takes over from the ones before it
// (docs/reliability.md): the state its journal says (none without one:
// on a Kerberos cluster, switched off, or refused), and the executor
// containers YARN kept, which are taken over either way (kept.go).
type Resumption struct {
	State *journal.State
	// Kept are the containers the registration (or a later allocate)
	// names as the previous attempts'.
	Kept []*hadoopyarn.ContainerProto
	// Wait bounds how long placement waits for the kept executors to
	// register again.
	Wait time.Duration
	// Stop bounds how long placement waits for the kept containers it
	// releases to have stopped, as their NodeManagers say: by then an
	// executor no attempt reached has stopped its tasks itself
	// (core.Core.Kept).
	Stop time.Duration
	// Dial reaches an executor's rejoin listener (wire.Dial with the
	// executors' secret).
	Dial func(ctx context.Context, addr string) (*wire.Conn, error)
}

// resumeOrStartOver takes over what the previous attempt left
// (Config.Resume), saying which jobs it resumed; when that cannot be, it
// starts over, the error saying why it cannot either.
func (d *Driver) resumeOrStartOver(ctx context.Context) (map[scheduler.JobID]bool, error) {
	r := d.cfg.Resume
	if r == nil {
		return nil, nil
	}
	resumed, err := d.resume(ctx, time.Now(), r)
	if err == nil {
		return resumed, nil
	}
	d.log.WithError(err).Error("the previous attempt's work cannot be resumed: it starts over")
	return nil, d.startOver(time.Now(), r)
}

// resume resumes the journal's jobs in the core and takes over the kept
// containers, dialling their executors. A job the core refuses leaves it
// half-resumed: the error says so, and the caller starts over.
func (d *Driver) resume(ctx context.Context, now time.Time, r *Resumption) (map[scheduler.JobID]bool, error) {
	// What the journal says of the executors as this attempt begins:
	// the journal's own state forgets those it is told are gone (below),
	// which an allocate may yet name (keptLater).
	d.journalled, d.journalledDrains = maps.Clone(r.State.Executors), maps.Clone(r.State.Drains)
	resumed := map[scheduler.JobID]bool{}
	for _, j := range r.State.Jobs {
		rj, err := resumedJob(j)
		if err != nil {
			return nil, err
		}
		if err := d.core.Resume(now, rj); err != nil {
			return nil, err
		}
		resumed[rj.ID] = true
	}
	if err := d.core.NumberFrom(scheduler.JobID(r.State.NextJob), scheduler.StageID(r.State.NextStage)); err != nil {
		return nil, err
	}
	d.adoptKept(ctx, now, r, r.Kept)
	// The journal forgets the executors YARN did not keep.
	kept := map[string]bool{}
	for _, ct := range r.Kept {
		kept[yarn.ContainerID(ct.GetId())] = true
	}
	var gone []string
	for id := range r.State.Executors {
		if !kept[id] {
			gone = append(gone, id)
		}
	}
	for _, id := range gone {
		d.journalGone(id)
	}
	return resumed, nil
}

// resumedJob is a job of the journal as the core resumes it.
func resumedJob(j *journal.JobState) (core.ResumedJob, error) {
	spec, err := jobspec.Parse(j.Spec, fmt.Sprintf("job %d of the journal", j.ID), jobspec.Defaults{})
	if err != nil {
		return core.ResumedJob{}, err
	}
	rj := core.ResumedJob{ID: scheduler.JobID(j.ID), FirstStage: scheduler.StageID(j.FirstStage), Spec: spec}
	for _, p := range j.StageProfiles {
		rj.StageProfiles = append(rj.StageProfiles, scheduler.ProfileID(p))
	}
	for _, sh := range j.StageShapes {
		rj.StageShapes = append(rj.StageShapes, scheduler.Profile{Cores: sh.Cores, MemoryMB: sh.MemoryMB, GPUs: sh.GPUs})
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

// startOver puts a core that could not resume the previous attempt's
// work (half-resumed, never to be used) in place of a new one, which
// releases the containers YARN kept, and tells the journal the work it
// held is over: this attempt runs its job from the start, and a session
// none of the jobs before.
func (d *Driver) startOver(now time.Time, r *Resumption) error {
	c, err := core.New(d.cfg.Core)
	if err != nil {
		return err
	}
	d.core = c
	if err := c.NumberFrom(scheduler.JobID(r.State.NextJob), scheduler.StageID(r.State.NextStage)); err != nil {
		return err
	}
	d.journalled = nil            // none is adopted: an allocate's later ones are released too
	var kept []core.KeptContainer // none journalled: each is released
	for _, ct := range r.Kept {
		kept = append(kept, d.kept(ct))
	}
	d.core.Kept(now, kept, 0, r.Stop)
	if d.cfg.Journal != nil {
		var ended []int
		for _, j := range r.State.Jobs {
			ended = append(ended, j.ID)
		}
		for _, id := range ended {
			d.cfg.Journal.Append(journal.Entry{JobEnded: &id})
		}
	}
	return nil
}
