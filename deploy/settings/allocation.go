package settings

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// SessionLimits bound the tasks a session's jobs may have waiting.
func SessionLimits(c *config.Config) (core.SessionLimits, error) {
	s := Read(c)
	l := core.SessionLimits{MaxPendingTasks: s.Int("spindle.session.maxPendingTasks"), MaxPendingTasksPerJob: s.Int("spindle.session.maxPendingTasksPerJob"),
		MaxRunningJobs: s.Int("spindle.session.maxRunningJobs"), MaxExecutorProfiles: s.Int("spindle.session.maxExecutorProfiles")}
	return l, s.Err()
}

// Allocation is dynamic allocation's configuration.
func Allocation(c *config.Config) (dynalloc.Config, error) {
	const k = "spindle.dynamicAllocation."
	s := Read(c)
	policy, err := dynalloc.ParsePolicy(s.Enum(k + "policy"))
	s.Keep(err)
	cfg := dynalloc.Config{
		Policy:            policy,
		MinExecutors:      s.Int(k + "minExecutors"),
		MaxExecutors:      s.Int(k + "maxExecutors"),
		InitialExecutors:  s.Int(k + "initialExecutors"),
		ExecutorInstances: s.Int("spindle.executor.instances"),
		AllocationRatio:   s.Float(k + "executorAllocationRatio"),
		WarmPoolSize:      s.Int(k + "warmPool.size"),
	}
	for key, dst := range map[string]*time.Duration{
		"executorIdleTimeout": &cfg.IdleTimeout, "schedulerBacklogTimeout": &cfg.BacklogTimeout,
		"sustainedSchedulerBacklogTimeout": &cfg.SustainedBacklogTimeout, "warmPool.idleTimeout": &cfg.WarmPoolIdleTimeout,
		"surplusIdleTimeout": &cfg.SurplusIdleTimeout, "rampDownDelay": &cfg.RampDownDelay,
	} {
		*dst, err = c.Duration(k + key)
		s.Keep(err)
	}
	if s.Err() != nil {
		return cfg, s.Err()
	}
	return cfg, cfg.Validate()
}
