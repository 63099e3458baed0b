package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// An ApplicationMaster's next attempt goes on with its predecessor's
// work (docs/reliability.md): it resumes the jobs the journal says had
// not ended, with the tasks that had succeeded done (Resume); it takes
// over the executor containers YARN kept (Kept), placing no task until
// their executors have registered again with the attempts they still
// run, which it adopts (Registration.Running), or until a wait runs out.
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
	id, err := c.Submit(now, j.Spec, j.StageProfiles)
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
	c.notice(Notice{Job: j.Spec.Name, Message: fmt.Sprintf("job %d resumed from the previous attempt: %d tasks had succeeded", id, len(j.Done))})
	return nil
}

// KeptContainer is an executor container of an earlier attempt that YARN
// kept for this one, with what the journal says of it.
type KeptContainer struct {
	ID, Node, NodeName string
	Profile            scheduler.ProfileID
	GPUIndices         []string
	AccelIndices       []scheduler.Assigned
	// Journalled says the journal knows its executor. Without that the
	// AM has no address to reach it at: the container is released.
	Journalled bool
}

// RunningAttempt is an attempt a rejoining executor still runs, by the
// ids the attempt that launched it gave, which Resume keeps.
type RunningAttempt struct {
	Attempt scheduler.AttemptID
	GPUs    []string
	Accels  []scheduler.Assigned
}

// Kept takes over the containers an earlier attempt ran: they hold their
// GPU indices and count towards their profiles' targets. Until each
// journalled one's executor has registered again and sent its first
// batch of statuses (what ended while it had no driver, maybe none), or
// until wait has passed, no task is placed (a task placed meanwhile might be one an
// executor not yet back still runs); then the containers still missing
// are released and whatever ran there runs again.
func (c *Core) Kept(now time.Time, kept []KeptContainer, wait time.Duration) {
	k := c.yarn
	if k == nil {
		return
	}
	for _, ct := range kept {
		prof, ok := c.profile(ct.Profile)
		why := ""
		switch {
		case !ct.Journalled:
			why = "the journal does not name its executor"
		case !ok:
			why = fmt.Sprintf("profile %d is not this configuration's", ct.Profile)
		default:
			if err := k.takeDevices(ct.Node, ct.GPUIndices, ct.AccelIndices); err != nil {
				why = err.Error()
			}
		}
		k.health.seen(ct.Node, ct.NodeName)
		if why != "" {
			k.release = append(k.release, ct.ID)
			c.notice(Notice{Warning: true, Container: ct.ID, Node: ct.Node, Message: "kept container released: " + why})
			continue
		}
		k.live[ct.ID] = &container{node: ct.Node, name: ct.NodeName, profile: prof, gpus: ct.GPUIndices, accels: ct.AccelIndices}
		if c.awaiting == nil {
			c.awaiting = map[scheduler.ExecutorID]bool{}
		}
		c.awaiting[scheduler.ExecutorID(ct.ID)] = true
	}
	if len(c.awaiting) > 0 {
		c.awaitUntil = now.Add(wait)
		c.notice(Notice{Message: fmt.Sprintf("awaiting %d executors of the previous attempt for up to %v before placing tasks", len(c.awaiting), wait)})
	}
}

func (c *Core) profile(id scheduler.ProfileID) (scheduler.Profile, bool) {
	for _, p := range c.cfg.Profiles {
		if p.ID == id {
			return p, true
		}
	}
	return scheduler.Profile{}, false
}

// holding says whether placement waits for kept executors; at the end
// of the wait it releases the containers of those that never came.
func (c *Core) holding(now time.Time) bool {
	if len(c.awaiting) == 0 {
		return false
	}
	if now.Before(c.awaitUntil) {
		return true
	}
	for _, id := range sortedIDs(c.awaiting) {
		if c.execs[id] != nil {
			continue // back, if quiet since: it goes on as any executor
		}
		if x := c.yarn.forget(string(id)); x != nil {
			c.yarn.release = append(c.yarn.release, string(id))
			c.notice(Notice{Warning: true, Container: string(id), Node: x.node, Message: "kept container released: its executor did not register again in time"})
		}
	}
	c.awaiting = nil
	return false
}

func sortedIDs(m map[scheduler.ExecutorID]bool) []scheduler.ExecutorID {
	ids := make([]scheduler.ExecutorID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
	return ids
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
