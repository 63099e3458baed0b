package core

import (
	"fmt"

	"github.com/spindle-yarn/spindle/am/jobspec"
)

// SessionLimits bound the tasks a session's jobs have waiting to run
// (queued, backing off after a failure, or waiting for earlier stages):
// a client cannot have the session hold more work than it was sized for.
// A submit that would pass either bound is refused. Zero is no bound.
type SessionLimits struct {
	// MaxPendingTasks bounds the tasks waiting across all the session's
	// jobs (spindle.session.maxPendingTasks).
	MaxPendingTasks int
	// MaxPendingTasksPerJob bounds one job's: a job's tasks all wait when
	// it is submitted (spindle.session.maxPendingTasksPerJob).
	MaxPendingTasksPerJob int
	// MaxRunningJobs bounds the jobs not yet ended: each costs about a
	// kilobyte however few its tasks, so the bounds on tasks alone would
	// let a loop of one-task submits take gigabytes
	// (spindle.session.maxRunningJobs).
	MaxRunningJobs int
	// MaxExecutorProfiles bounds the executor profiles a session holds,
	// its default one included: each stage shape its jobs need adds one
	// (fit.go), and each costs an ask and dynamic allocation's state for
	// as long as the session runs (spindle.session.maxExecutorProfiles).
	MaxExecutorProfiles int
}

// admit refuses spec when its tasks would pass a limit, saying which, by
// how much, and what to set.
func (c *Core) admit(spec *jobspec.Job) error {
	l := c.cfg.Limits
	tasks := 0
	for _, st := range spec.Stages {
		tasks += st.Tasks
	}
	if l.MaxRunningJobs > 0 && len(c.jobs) >= l.MaxRunningJobs {
		return fmt.Errorf("job %q would be the session's job %d not yet ended, more than spindle.session.maxRunningJobs (%d)", spec.Name, len(c.jobs)+1, l.MaxRunningJobs)
	}
	if l.MaxPendingTasksPerJob > 0 && tasks > l.MaxPendingTasksPerJob {
		return fmt.Errorf("job %q has %d tasks waiting, more than spindle.session.maxPendingTasksPerJob (%d)", spec.Name, tasks, l.MaxPendingTasksPerJob)
	}
	if l.MaxPendingTasks <= 0 {
		return nil
	}
	waiting := 0
	for id := range c.jobs {
		if p, ok := c.sched.JobProgress(id); ok {
			waiting += p.Pending
		}
	}
	if waiting+tasks > l.MaxPendingTasks {
		return fmt.Errorf("job %q would bring the session's tasks waiting to %d (its %d, and %d of its other jobs), more than spindle.session.maxPendingTasks (%d)",
			spec.Name, waiting+tasks, tasks, waiting, l.MaxPendingTasks)
	}
	return nil
}
