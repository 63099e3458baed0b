package settings

import (
	"fmt"
	"os"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// ExecutorProfile is the executor shape spindle.executor.* describe.
func ExecutorProfile(c *config.Config) (scheduler.Profile, error) {
	s := Read(c)
	p := scheduler.Profile{ID: 0, Cores: s.Int("spindle.executor.cores"), GPUs: s.Int("spindle.executor.resource.gpu.amount")}
	mem, err := c.SizeMiB("spindle.executor.memory")
	s.Keep(err)
	p.MemoryMB = mem
	p.Accels, _, err = Accelerators(c)
	s.Keep(err)
	return p, s.Err()
}

// Scheduler is the scheduler core's configuration: scheduling mode,
// pools from spindle.scheduler.allocation.file, retries and their
// backoff, locality, exclusion, gangs.
func Scheduler(c *config.Config) (scheduler.Config, error) {
	s := Read(c)
	mode, err := scheduler.ParseSchedulingMode(s.Enum("spindle.scheduler.mode"))
	s.Keep(err)
	fairness, err := scheduler.ParseFairness(s.Enum("spindle.scheduler.fairness"))
	s.Keep(err)
	cfg := scheduler.Config{
		Mode:            mode,
		Fairness:        fairness,
		MaxTaskFailures: s.Int("spindle.task.maxFailures"),
		Exclusion: scheduler.ExclusionConfig{
			Enabled:            s.Bool("spindle.excludeOnFailure.enabled"),
			MaxFailuresPerHost: s.Int("spindle.excludeOnFailure.maxFailedTasksPerHost"),
		},
	}
	cfg.Gang = scheduler.GangConfig{Timeout: s.Duration("spindle.gang.timeout"), MaxRetries: s.Int("spindle.gang.maxRetries"),
		Soft: s.Enum("spindle.gang.style") == "soft"}
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
