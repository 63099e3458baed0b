package core

import (
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Executors counts the registered executors.
func (c *Core) Executors() int { return len(c.execs) }

// ExecutorProfile is a registered executor's profile: its container's
// on YARN, the first (the executors' shape) locally, where executors have
// no container.
func (c *Core) ExecutorProfile(id scheduler.ExecutorID) (scheduler.ProfileID, bool) {
	x := c.execs[id]
	if x == nil {
		return 0, false
	}
	return x.profile, true
}

// RejectedSoFar counts the connections refused so far (Rejected): what
// a job's Summary.Rejected says once it has ended.
func (c *Core) RejectedSoFar() int { return c.rejected }

// jobIDs are the running jobs, in submission order.
func (c *Core) jobIDs() []scheduler.JobID {
	ids := make([]scheduler.JobID, 0, len(c.jobs))
	for id := range c.jobs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
	return ids
}

// Progress is each running job's progress, in submission order.
func (c *Core) Progress(now time.Time) []Progress {
	var out []Progress
	for _, id := range c.jobIDs() {
		j := c.jobs[id]
		if p, ok := c.sched.JobProgress(id); ok {
			out = append(out, Progress{Job: j.spec.Name, Tasks: p.Tasks, Succeeded: p.Succeeded, Running: p.Running,
				Failed: p.FailedAttempts, Executors: len(c.execs), Elapsed: now.Sub(j.sum.Started)})
		}
	}
	return out
}

// Status is the application as the tracking page shows it: the oldest
// running job in detail, every job, every pool and every executor.
func (c *Core) Status(now time.Time) Status {
	st := Status{App: c.cfg.AppID}
	jobs, waiting := c.jobsWaiting(now)
	if ids := c.jobIDs(); len(ids) > 0 {
		j := c.jobs[ids[0]]
		st.Job, st.ElapsedSeconds = j.spec.Name, now.Sub(j.sum.Started).Seconds()
		if p, ok := c.sched.JobProgress(j.id); ok {
			st.Tasks, st.Succeeded, st.Running, st.Pending, st.FailedAttempts = p.Tasks, p.Succeeded, p.Running, p.Pending, p.FailedAttempts
		}
		st.Waiting = waiting[j.id]
	}
	for _, e := range c.sched.Executors() {
		st.Executors = append(st.Executors, ExecutorStatus{ID: string(e.ID), Host: e.Host, Running: e.Running})
	}
	for _, j := range jobs {
		st.Jobs = append(st.Jobs, JobStatus{ID: int64(j.ID), Name: j.Name, Pool: j.Pool, State: string(j.State), Tasks: j.Tasks, Succeeded: j.Succeeded,
			Running: j.Running, FailedAttempts: j.FailedAttempts, DurationS: j.Duration.Seconds(), Reason: j.Reason, Waiting: waiting[j.ID]})
	}
	for _, p := range c.sched.Pools() {
		st.Pools = append(st.Pools, PoolStatus{Name: p.Name, Mode: p.Mode.String(), Weight: p.Weight, MinShare: p.MinShare, Running: p.Running,
			Pending: p.Pending, Jobs: p.Jobs})
	}
	return st
}
