package core

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// place runs the scheduler's rounds until nothing more changes: an
// attempt whose command cannot be built fails at once (every attempt
// would), and the round after carries out what that failure decided.
// Held (!placing), it places nothing, and carries out what the
// scheduler decided all the same: kills, jobs that ended.
func (c *Core) place(now time.Time, placing bool) {
	defer clear(c.gangs.unlaunched) // the kills of those come in the round after
	for {
		var rd scheduler.Ready
		if placing {
			rd = c.sched.Ready(now)
		} else {
			rd = c.sched.Held(now)
		}
		unbuilt := false
		first := len(c.rd.Launches)
		hosts, gang := map[scheduler.AttemptID]string{}, map[scheduler.AttemptID]bool{}
		for _, l := range rd.Launches {
			st := c.stages[l.Attempt.Task.Stage]
			st.job.sum.Attempts++
			if l.Attempt.Attempt > c.firstAttempt { // numbered past this AM attempt's first (ids.go)
				st.job.sum.Retries++
			}
			launch, err := c.launch(l, st)
			if err != nil {
				st.job.sum.Failures++
				c.sched.TaskFinished(now, l.Executor, l.Attempt, scheduler.TaskResult{Outcome: scheduler.Failed, Reason: err.Error(), Permanent: true})
				unbuilt = true
				continue
			}
			c.rd.Launches = append(c.rd.Launches, launch)
			if c.sched.LaunchesAsGang(l.Attempt.Task.Stage) {
				hosts[l.Attempt], gang[l.Attempt] = l.Host, true
			}
			if c.cfg.Session && !slices.Contains(st.job.ranOn, l.Executor) {
				st.job.ranOn = append(st.job.ranOn, l.Executor)
			}
			if x := c.execs[l.Executor]; x != nil { // always: the scheduler places only on registered executors
				c.usage.taskStarted(now, x)
			}
			if st.job.sum.FirstLaunch.IsZero() {
				st.job.sum.FirstLaunch = now
			}
			if st.started.IsZero() {
				st.started = now
				c.notice(Notice{Job: st.job.spec.Name, Stage: st.spec.Name, Message: fmt.Sprintf("stage started: %d tasks", st.spec.Tasks)})
			}
		}
		kept := c.holdGangs(c.rd.Launches[first:], hosts, gang)
		c.rd.Launches = c.rd.Launches[:first+len(kept)]
		groupByExecutor(kept)
		again := c.kills(now, rd.Kills)
		for _, t := range rd.GangTimeouts {
			c.gangTimedOut(t)
		}
		c.gangTasksDone(rd.GangTasksDone)
		// Before the jobs that ended below, whose stages go with them.
		c.taskFailures(rd.Failures)
		for _, id := range rd.StagesSucceeded {
			if st := c.stages[id]; st != nil {
				c.notice(Notice{Job: st.job.spec.Name, Stage: st.spec.Name,
					Message: fmt.Sprintf("stage succeeded: %d tasks in %v", st.spec.Tasks, now.Sub(st.started))})
			}
		}
		for _, f := range rd.Finished {
			c.jobEnded(now, f)
		}
		if !unbuilt && !again {
			return
		}
	}
}

// taskFailures passes on the counted failures the scheduler lists, for
// the journal.
func (c *Core) taskFailures(failed []scheduler.TaskID) {
	for _, id := range failed {
		if st := c.stages[id.Stage]; st != nil {
			c.rd.TaskFailures = append(c.rd.TaskFailures, JobTask{Job: st.job.id, TaskRef: TaskRef{StageIndex: st.index, Index: id.Index}})
		}
	}
}

// launch builds the attempt l of a stage of st.job.
func (c *Core) launch(l scheduler.Launch, st *stageOf) (TaskLaunch, error) {
	if st.spec == nil {
		return TaskLaunch{}, fmt.Errorf("no stage %d", l.Attempt.Task.Stage)
	}
	name := st.job.spec.Name
	var argv []string
	if st.spec.Builtin == "" {
		var err error
		if argv, err = st.spec.TaskCommand(name, l.Attempt.Task.Index, l.Attempt.Attempt); err != nil {
			return TaskLaunch{}, err
		}
	}
	env, err := st.spec.TaskEnv(name, l.Attempt.Task.Index, l.Attempt.Attempt)
	if err != nil {
		return TaskLaunch{}, err
	}
	out := TaskLaunch{Executor: l.Executor, Attempt: l.Attempt, JobID: st.job.id, StageIndex: st.index, Job: name, Stage: st.spec.Name, TaskCount: st.spec.Tasks,
		Argv: argv, Builtin: st.spec.Builtin, GPUs: l.Addresses, CPUs: l.Request.CPUs, Accels: l.Accels}
	for _, e := range env {
		out.Env = append(out.Env, EnvVar{Name: e.Name, Value: e.Value})
	}
	return out, nil
}

// jobEnded closes a job's summary. The application ends with its last
// job, unless it is a session, which ends only when it fails.
func (c *Core) jobEnded(now time.Time, f scheduler.JobResult) {
	j := c.jobs[f.Job]
	if j == nil {
		return
	}
	delete(c.jobs, f.Job)
	for sid, st := range c.stages {
		if st.job == j {
			delete(c.stages, sid)
		}
	}
	sum := j.sum
	sum.Succeeded, sum.Reason = f.Succeeded, f.Reason
	sum.Cancelled = !f.Succeeded && j.cancelled
	sum.Duration = now.Sub(sum.Started)
	sum.Rejected = c.rejected
	sum.Registered = append([]time.Time(nil), c.registered...)
	for _, e := range c.every {
		sum.Executors = append(sum.Executors, *e)
	}
	sort.Slice(sum.Executors, func(i, k int) bool { return sum.Executors[i].ID < sum.Executors[k].ID })
	c.rd.Finished = append(c.rd.Finished, sum)
	if len(j.ranOn) > 0 { // a session's only (place)
		c.rd.JobsEnded = append(c.rd.JobsEnded, JobEnded{Job: j.id, Executors: j.ranOn})
	}
	info := JobInfo{ID: j.id, Name: j.spec.Name, Pool: j.spec.Pool, State: JobSucceeded, Tasks: sum.Tasks, Submitted: sum.Started,
		Duration: sum.Duration, Reason: sum.Reason, FailedAttempts: sum.Failures}
	info.Succeeded = j.succeeded
	switch {
	case f.Succeeded:
	case j.cancelled:
		info.State = JobCancelled
	default:
		info.State = JobFailed
	}
	c.remember(info)
	c.usage.jobEnded(info.State)
	if f.Succeeded {
		c.notice(Notice{Job: sum.Job, Message: fmt.Sprintf("job succeeded: %d tasks, %d attempts in %v", sum.Tasks, sum.Attempts, sum.Duration)})
	} else if !j.cancelled { // Cancel said so
		c.notice(Notice{Job: sum.Job, Warning: true, Message: "job failed: " + sum.Reason})
	}
	switch {
	case len(c.jobs) > 0 || c.final != nil:
	case c.cfg.Session && c.failing != "":
		c.final = &Final{Diagnostics: c.failing}
	case c.stopping != "":
		c.final = &Final{Succeeded: true, Diagnostics: "stopped: " + c.stopping}
	case c.cfg.Session:
	case f.Succeeded:
		c.final = &Final{Succeeded: true, Diagnostics: "job " + sum.Job + " succeeded"}
	default:
		c.final = &Final{Diagnostics: sum.Reason}
	}
}
