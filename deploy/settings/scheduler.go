package settings

import (
	"fmt"
	"os"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// ExecutorProfile is the executor shape spindle.executor.* describe.
func ExecutorProfile(c *config.Config) (scheduler.Profile, error) {
	s := Read(c)
	p := scheduler.Profile{ID: 0, Cores: s.Int("spindle.executor.cores"), GPUs: s.Int("spindle.executor.resource.gpu.amount")}
	mem, err := c.SizeMiB("spindle.executor.memory")
	s.Keep(err)
	p.MemoryMB = mem
	return p, s.Err()
}

// Scheduler is the scheduler core's configuration: scheduling mode,
// pools from spindle.scheduler.allocation.file, retries and their
// backoff, locality, exclusion.
func Scheduler(c *config.Config) (scheduler.Config, error) {
	s := Read(c)
	mode, err := scheduler.ParseSchedulingMode(s.Enum("spindle.scheduler.mode"))
	s.Keep(err)
	cfg := scheduler.Config{
		Mode:            mode,
		MaxTaskFailures: s.Int("spindle.task.maxFailures"),
		Exclusion: scheduler.ExclusionConfig{
			Enabled:            s.Bool("spindle.excludeOnFailure.enabled"),
			MaxFailuresPerHost: s.Int("spindle.excludeOnFailure.maxFailedTasksPerHost"),
		},
	}
	cfg.LocalityWait, err = c.Duration("spindle.locality.wait")
	s.Keep(err)
	cfg.RetryBackoff = s.Duration("spindle.task.retry.backoff")
	cfg.RetryMaxBackoff = s.Duration("spindle.task.retry.maxBackoff")
	if s.Err() == nil && cfg.RetryBackoff > cfg.RetryMaxBackoff {
		return cfg, fmt.Errorf("spindle.task.retry.backoff %v is more than spindle.task.retry.maxBackoff %v, which caps it", cfg.RetryBackoff, cfg.RetryMaxBackoff)
	}
	cfg.Exclusion.Timeout, err = c.Duration("spindle.excludeOnFailure.timeout")
	s.Keep(err)
	cfg.Exclusion.UnschedulableTimeout, err = c.Duration("spindle.scheduler.excludeOnFailure.unschedulableTaskSetTimeout")
	s.Keep(err)
	if path := s.String("spindle.scheduler.allocation.file"); path != "" && s.Err() == nil {
		f, err := os.Open(path)
		if err != nil {
			return cfg, fmt.Errorf("spindle.scheduler.allocation.file: %w", err)
		}
		defer f.Close()
		cfg.Pools, err = scheduler.ParseAllocations(f, path)
		s.Keep(err)
	}
	return cfg, s.Err()
}

// SessionLimits bound the tasks a session's jobs may have waiting.
func SessionLimits(c *config.Config) (core.SessionLimits, error) {
	s := Read(c)
	l := core.SessionLimits{MaxPendingTasks: s.Int("spindle.session.maxPendingTasks"), MaxPendingTasksPerJob: s.Int("spindle.session.maxPendingTasksPerJob"),
		MaxRunningJobs: s.Int("spindle.session.maxRunningJobs")}
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
