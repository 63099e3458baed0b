package core

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// An ApplicationMaster's next attempt goes on with its predecessor's
// work (docs/reliability.md): it resumes the jobs the journal says had
// not ended, with the tasks that had succeeded done and the failures of
// the others counted (Resume); it takes over the executor containers
// YARN kept (Kept, kept.go), placing no task until their executors have
// registered again with the attempts they still run, which it adopts
// (Registration.Running), or until their containers are gone.
// What such an executor ran to success while it had no driver is
// reported after it registers, for an attempt this core never placed:
// the task's success stands all the same.

// ResumedJob is a job an earlier attempt journalled that had not ended.
type ResumedJob struct {
	ID            scheduler.JobID
	FirstStage    scheduler.StageID
	Spec          *jobspec.Job
	StageProfiles []scheduler.ProfileID
	// StageShapes, when the journal has them, are those profiles' shapes,
	// stage by stage (restoreShapes).
	StageShapes []scheduler.Profile
	// Done are its tasks that succeeded, in the order they did.
	Done []TaskRef
	// Failures are the counted failures its other tasks had (Ready's
	// TaskFailures, as the journal summed them): they count against
	// them again. Those of a task in Done are passed over.
	Failures []TaskFailures
}

// TaskFailures is how many counted failures a task had.
type TaskFailures struct {
	TaskRef
	Count int
}

// NumberFrom makes job and stage the ids of the next job submitted and
// its first stage: once an earlier attempt's jobs are resumed, new jobs
// take ids none of its jobs had, ended ones included.
func (c *Core) NumberFrom(job scheduler.JobID, stage scheduler.StageID) error {
	return c.sched.NumberFrom(job, stage)
}

// TaskRef names a task by its stage's place in its job's spec.
type TaskRef struct{ StageIndex, Index int }

// Resume submits job j again under its id, its succeeded tasks done:
// they do not run again. Call it job by job in id order, before the
// first Ready. An error (a spec this configuration refuses, a task the
// job does not have) leaves the core half-resumed: the caller must
// then start over with a new core, not go on with this one.
func (c *Core) Resume(now time.Time, j ResumedJob) error {
	if err := c.sched.NumberFrom(j.ID, j.FirstStage); err != nil {
		return fmt.Errorf("resuming job %d: %w", j.ID, err)
	}
	if err := c.restoreShapes(j); err != nil {
		return fmt.Errorf("resuming job %d: %w", j.ID, err)
	}
	id, err := c.submit(now, j.Spec, j.StageProfiles)
	if err != nil {
		return fmt.Errorf("resuming job %d: %w", j.ID, err)
	}
	stages := c.sched.JobStages(id)
	for _, t := range j.Done {
		if t.StageIndex < 0 || t.StageIndex >= len(stages) {
			return fmt.Errorf("resuming job %d: it has no stage %d", id, t.StageIndex)
		}
		if err := c.sched.RestoreSucceeded(now, scheduler.TaskID{Stage: stages[t.StageIndex], Index: t.Index}); err != nil {
			return fmt.Errorf("resuming job %d: %w", id, err)
		}
		c.jobs[id].succeeded++
	}
	if err := c.restoreFailures(id, stages, j); err != nil {
		return fmt.Errorf("resuming job %d: %w", id, err)
	}
	c.notice(Notice{Job: j.Spec.Name, Message: fmt.Sprintf("job %d resumed from the previous attempt: %d tasks had succeeded", id, len(j.Done))})
	return nil
}

// restoreFailures counts the failures j's tasks had again, but those of
// tasks that succeeded after.
func (c *Core) restoreFailures(id scheduler.JobID, stages []scheduler.StageID, j ResumedJob) error {
	done := map[TaskRef]bool{}
	for _, t := range j.Done {
		done[t] = true
	}
	for _, f := range j.Failures {
		if done[f.TaskRef] {
			continue
		}
		if f.StageIndex < 0 || f.StageIndex >= len(stages) {
			return fmt.Errorf("it has no stage %d", f.StageIndex)
		}
		if err := c.sched.RestoreFailures(scheduler.TaskID{Stage: stages[f.StageIndex], Index: f.Index}, f.Count); err != nil {
			return err
		}
		c.jobs[id].sum.Failures += f.Count
	}
	return nil
}

// adopt takes over the attempts a rejoining executor x still runs; one
// the scheduler cannot take (its task succeeded meanwhile, its job
// ended) is stopped.
func (c *Core) adopt(now time.Time, x *executor, running []RunningAttempt) {
	x.rejoined = true
	for _, r := range running {
		if err := c.sched.AdoptHolding(now, x.id, r.Attempt, r.GPUs, r.Accels); err != nil {
			c.notice(Notice{Warning: true, Executor: x.id, Message: fmt.Sprintf("%v not adopted: %v; it is stopped", r.Attempt, err)})
			c.rd.Kills = append(c.rd.Kills, scheduler.Kill{Attempt: r.Attempt, Executor: x.id, Reason: "not adopted: " + err.Error()})
			continue
		}
		c.usage.taskStarted(now, x)
		if st := c.stages[r.Attempt.Task.Stage]; st != nil {
			st.job.sum.Attempts++
		}
	}
}
