package deploy

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// loadConfig reads the properties file (--properties-file, else
// $SPINDLE_CONF_DIR/spindle-defaults.conf if present), the --conf
// overrides and the flags that stand for keys.
func loadConfig(propertiesFile string, overrides []string, flags ...config.Flag) (*config.Config, error) {
	var files []string
	if propertiesFile != "" {
		files = append(files, propertiesFile)
	} else if p, ok := config.DefaultPropertiesFile(os.LookupEnv); ok {
		files = append(files, p)
	}
	return config.LoadFiles(files, overrides, flags...)
}

// writeSettings writes conf's settings to path (0600), as a properties
// file config.LoadFiles reads back: how a process Spindle starts (an AM,
// a local session's driver) gets the settings it was started with. over
// replaces some keys' values.
func writeSettings(path string, conf *config.Config, over map[string]string) error {
	var props bytes.Buffer
	for _, st := range conf.Settings() {
		if v, ok := over[st.Key]; ok {
			st.Value = v
		}
		fmt.Fprintf(&props, "%s=%s\n", st.Key, st.Value)
	}
	return os.WriteFile(path, props.Bytes(), 0o600)
}

// settings reads typed values off a configuration, keeping the first
// error: a run of reads is checked once.
type settings struct {
	c   *config.Config
	err error
}

func (s *settings) int(key string) int {
	v, err := s.c.Int(key)
	s.keep(err)
	return v
}

func (s *settings) bool(key string) bool {
	v, err := s.c.Bool(key)
	s.keep(err)
	return v
}

func (s *settings) str(key string) string {
	v, err := s.c.String(key)
	s.keep(err)
	return v
}

func (s *settings) enum(key string) string {
	v, err := s.c.Enum(key)
	s.keep(err)
	return v
}

func (s *settings) duration(key string) time.Duration {
	v, err := s.c.Duration(key)
	s.keep(err)
	return v
}

func (s *settings) float(key string) float64 {
	v, err := s.c.Float(key)
	s.keep(err)
	return v
}

func (s *settings) bytes(key string) int64 {
	v, err := s.c.Bytes(key)
	s.keep(err)
	return v
}

func (s *settings) keep(err error) {
	if s.err == nil {
		s.err = err
	}
}

// executorProfile is the executor shape spindle.executor.* describe.
func executorProfile(c *config.Config) (scheduler.Profile, error) {
	s := &settings{c: c}
	p := scheduler.Profile{ID: 0, Cores: s.int("spindle.executor.cores"), GPUs: s.int("spindle.executor.resource.gpu.amount")}
	mem, err := c.SizeMiB("spindle.executor.memory")
	s.keep(err)
	p.MemoryMB = mem
	return p, s.err
}

// schedulerConfig is the scheduler core's configuration: scheduling mode,
// pools from spindle.scheduler.allocation.file, retries and their
// backoff, locality, exclusion.
func schedulerConfig(c *config.Config) (scheduler.Config, error) {
	s := &settings{c: c}
	mode, err := scheduler.ParseSchedulingMode(s.enum("spindle.scheduler.mode"))
	s.keep(err)
	cfg := scheduler.Config{
		Mode:            mode,
		MaxTaskFailures: s.int("spindle.task.maxFailures"),
		Exclusion: scheduler.ExclusionConfig{
			Enabled:            s.bool("spindle.excludeOnFailure.enabled"),
			MaxFailuresPerHost: s.int("spindle.excludeOnFailure.maxFailedTasksPerHost"),
		},
	}
	cfg.LocalityWait, err = c.Duration("spindle.locality.wait")
	s.keep(err)
	cfg.RetryBackoff = s.duration("spindle.task.retry.backoff")
	cfg.RetryMaxBackoff = s.duration("spindle.task.retry.maxBackoff")
	if s.err == nil && cfg.RetryBackoff > cfg.RetryMaxBackoff {
		return cfg, fmt.Errorf("spindle.task.retry.backoff %v is more than spindle.task.retry.maxBackoff %v, which caps it", cfg.RetryBackoff, cfg.RetryMaxBackoff)
	}
	cfg.Exclusion.Timeout, err = c.Duration("spindle.excludeOnFailure.timeout")
	s.keep(err)
	cfg.Exclusion.UnschedulableTimeout, err = c.Duration("spindle.scheduler.excludeOnFailure.unschedulableTaskSetTimeout")
	s.keep(err)
	if path := s.str("spindle.scheduler.allocation.file"); path != "" && s.err == nil {
		f, err := os.Open(path)
		if err != nil {
			return cfg, fmt.Errorf("spindle.scheduler.allocation.file: %w", err)
		}
		defer f.Close()
		cfg.Pools, err = scheduler.ParseAllocations(f, path)
		s.keep(err)
	}
	return cfg, s.err
}

// sessionLimits bound the tasks a session's jobs may have waiting.
func sessionLimits(c *config.Config) (core.SessionLimits, error) {
	s := &settings{c: c}
	l := core.SessionLimits{MaxPendingTasks: s.int("spindle.session.maxPendingTasks"), MaxPendingTasksPerJob: s.int("spindle.session.maxPendingTasksPerJob"),
		MaxRunningJobs: s.int("spindle.session.maxRunningJobs")}
	return l, s.err
}

// allocationConfig is dynamic allocation's configuration.
func allocationConfig(c *config.Config) (dynalloc.Config, error) {
	const k = "spindle.dynamicAllocation."
	s := &settings{c: c}
	policy, err := dynalloc.ParsePolicy(s.enum(k + "policy"))
	s.keep(err)
	cfg := dynalloc.Config{
		Policy:            policy,
		MinExecutors:      s.int(k + "minExecutors"),
		MaxExecutors:      s.int(k + "maxExecutors"),
		InitialExecutors:  s.int(k + "initialExecutors"),
		ExecutorInstances: s.int("spindle.executor.instances"),
		AllocationRatio:   s.float(k + "executorAllocationRatio"),
		WarmPoolSize:      s.int(k + "warmPool.size"),
	}
	for key, dst := range map[string]*time.Duration{
		"executorIdleTimeout": &cfg.IdleTimeout, "schedulerBacklogTimeout": &cfg.BacklogTimeout,
		"sustainedSchedulerBacklogTimeout": &cfg.SustainedBacklogTimeout, "warmPool.idleTimeout": &cfg.WarmPoolIdleTimeout,
		"surplusIdleTimeout": &cfg.SurplusIdleTimeout, "rampDownDelay": &cfg.RampDownDelay,
	} {
		*dst, err = c.Duration(k + key)
		s.keep(err)
	}
	if s.err != nil {
		return cfg, s.err
	}
	return cfg, cfg.Validate()
}
