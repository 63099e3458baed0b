package coretest

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/internal/scenario"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// config starts the core: flags as bare words (containers, fine, dynamic,
// session), numbers and durations as key=value, one profile or pool per
// input line.
func (s *script) config(a *scenario.Args, input []scenario.Input) error {
	var cfg core.Config
	cfg.LossReasonWait = a.Duration("losswait", 0)
	cfg.HeartbeatTimeout = a.Duration("heartbeat", 0)
	cfg.DrainGrace = a.Duration("grace", 0)
	if a.Has("mode") {
		m, err := scheduler.ParseSchedulingMode(a.String("mode", ""))
		if err != nil {
			return err
		}
		cfg.Scheduler.Mode = m
	}
	cfg.Scheduler.Gang = scheduler.GangConfig{Timeout: a.Duration("gangtimeout", 0), MaxRetries: a.Int("gangretries", 0), Soft: a.Flag("gangsoft")}
	cfg.FixedExecutors = a.Int("fixed", 0)
	initial := map[scheduler.ProfileID]int{} // profile lines' own
	for _, in := range input {
		if err := readProfileOrPool(&cfg, initial, in.Text); err != nil {
			return scenario.AtLine(in.Line, err)
		}
	}
	if a.Flag("containers") {
		cfg.Containers = containerConfig(a, cfg.Profiles, initial)
	}
	cfg.OneTaskPerExecutor = a.Flag("fine")
	if a.Flag("dynamic") {
		cfg.Allocation = &dynalloc.Config{MaxExecutors: a.Int("max", 8), MinExecutors: a.Int("min", 0), AllocationRatio: 1, IdleTimeout: 60 * time.Second, BacklogTimeout: time.Second,
			SustainedBacklogTimeout: time.Second, WarmPoolSize: 0, WarmPoolIdleTimeout: 60 * time.Second, SurplusIdleTimeout: 15 * time.Second,
			RampDownDelay: 5 * time.Second}
	}
	cfg.Session = a.Flag("session")
	cfg.AMAttempt = a.Int("amattempt", 0)
	if err := a.Err(); err != nil {
		return err
	}
	var err error
	s.h, err = New(cfg)
	return err
}

// containerConfig reads the "containers" flag's numbers: initial= is the
// first profile's initial count unless its profile line set one.
func containerConfig(a *scenario.Args, profiles []scheduler.Profile, initial map[scheduler.ProfileID]int) *core.ContainerConfig {
	cc := &core.ContainerConfig{Initial: initial, Heartbeat: a.Duration("beat", 0), InitialAllocation: a.Duration("eager", 0),
		MaxGPUsPerNode: a.Int("maxgpus", 0), MaxFailuresPerNode: a.Int("pernode", 0), MaxFailures: a.Int("maxfailures", 0),
		ExcludeTimeout: a.Duration("exclude", 0), AMContainer: a.String("amcontainer", ""), AMNode: a.String("amnode", ""),
		CutStopWait: a.Duration("cutwait", 0)}
	first := a.Int("initial", 0)
	if len(profiles) > 0 {
		if _, set := initial[profiles[0].ID]; !set {
			cc.Initial[profiles[0].ID] = first
		}
	}
	return cc
}

// readProfileOrPool reads "profile id=0 cores=1 gpus=1 mem=1024
// initial=N" or "pool name=P weight=W minshare=M mode=FAIR" into cfg.
func readProfileOrPool(cfg *core.Config, initial map[scheduler.ProfileID]int, line string) error {
	a := scenario.ParseArgs(line)
	switch a.Cmd {
	case "pool":
		pc := scheduler.DefaultPoolConfig(a.String("name", ""))
		pc.Weight, pc.MinShare = a.Int("weight", 1), a.Int("minshare", 0)
		if a.Has("mode") {
			m, err := scheduler.ParseSchedulingMode(a.String("mode", ""))
			if err != nil {
				return err
			}
			pc.Mode = m
		}
		cfg.Scheduler.Pools = append(cfg.Scheduler.Pools, pc)
	case "profile":
		p := scheduler.Profile{ID: scheduler.ProfileID(a.Int("id", 0)), Cores: a.Int("cores", 1), GPUs: a.Int("gpus", 0), MemoryMB: a.Int64("mem", 1024)}
		cfg.Profiles = append(cfg.Profiles, p)
		if a.Has("initial") {
			initial[p.ID] = a.Int("initial", 0)
		}
	default:
		return fmt.Errorf("%q: want profile or pool", line)
	}
	return a.Err()
}
