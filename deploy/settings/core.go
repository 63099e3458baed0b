package settings

import (
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// CoreFor says which process a core.Config is built for.
type CoreFor struct {
	AppID string
	// Job is the application's one job, whose stages shape fine mode's
	// executors; nil for a session and the simulator, whose executors
	// all have spindle.executor.*'s shape.
	Job     *jobspec.Job
	Session bool
	// Containers has the core keep executor containers, as the AM does on
	// YARN and the simulator against its simulated RM; local mode starts
	// a fixed set of executors itself, so pacing, dynamic allocation and
	// fine mode are not its business.
	Containers bool
}

// Core is the AM core's configuration from settings: the one builder the
// AM, local mode, a session and `spindle sim` share, so that the
// simulator runs the AM's rules under the AM's settings. With it come the
// profile of each of Job's stages (nil: the first for all).
func Core(conf *config.Config, f CoreFor) (core.Config, []scheduler.ProfileID, error) {
	var cfg core.Config
	sched, err := Scheduler(conf)
	if err != nil {
		return cfg, nil, err
	}
	profiles, stages, err := ExecutorProfiles(conf, f.Job)
	if err != nil {
		return cfg, nil, err
	}
	_, taskAccels, err := Accelerators(conf)
	if err != nil {
		return cfg, nil, err
	}
	cfg = core.Config{AppID: f.AppID, Scheduler: sched, Profiles: profiles, TaskAccels: taskAccels, Session: f.Session}
	if f.Session {
		if cfg.Limits, err = SessionLimits(conf); err != nil {
			return cfg, nil, err
		}
	}
	if !f.Containers {
		return cfg, stages, nil
	}
	s := Read(conf)
	fine := s.Enum("spindle.yarn.mode") == "fine"
	// Fine-grained mode asks for containers as tasks want them.
	dynamic := s.Bool("spindle.dynamicAllocation.enabled") || fine
	drainGrace := s.Duration("spindle.task.preemption.gracePeriod")
	if s.Err() != nil {
		return cfg, nil, s.Err()
	}
	cfg.OneTaskPerExecutor = fine
	cfg.DrainGrace = drainGrace
	if dynamic {
		alloc, err := Allocation(conf)
		if err != nil {
			return cfg, nil, err
		}
		cfg.Allocation = &alloc
	}
	cc, err := containerConfig(conf, profiles[0].ID, dynamic)
	stageInitial(&cc, stages, dynamic)
	cfg.Containers = &cc
	return cfg, stages, err
}
