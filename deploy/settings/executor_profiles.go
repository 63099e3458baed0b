package settings

import (
	"fmt"
	"math"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// ExecutorProfiles are the shapes of the executors a job runs on, and the
// profile of each of its stages (nil: the first for all). In coarse mode
// the first is spindle.executor.*, which every stage it can hold runs on;
// a stage it cannot hold gets executors of a shape derived from it
// (core.StageShapes: Spark's stage-level resource profiles). In
// fine-grained mode
// (spindle.yarn.mode=fine) every stage gets executors its own tasks' size —
// their cores, their GPUs rounded up to whole ones, their memory or else
// spindle.executor.memory — so that one task fills one, and a container
// is asked for per task: stages of one size share a profile. Without a
// job (a session, the simulator) the first is spindle.executor.*, and a
// coarse-mode core adds stage shapes as jobs need them (core.fitProfiles).
// Stages naming a node label or a placement then get profiles of their
// own (stage_labels.go).
func ExecutorProfiles(conf *config.Config, job *jobspec.Job) ([]scheduler.Profile, []scheduler.ProfileID, error) {
	profiles, stages, err := shapeProfiles(conf, job)
	if err != nil {
		return nil, nil, err
	}
	profiles, stages = labelStages(profiles, stages, job)
	return profiles, stages, nil
}

// shapeProfiles are ExecutorProfiles by shape alone, before labels.
func shapeProfiles(conf *config.Config, job *jobspec.Job) (profiles []scheduler.Profile, stages []scheduler.ProfileID, err error) {
	base, err := ExecutorProfile(conf)
	if err != nil {
		return nil, nil, err
	}
	mode, err := conf.Enum("spindle.yarn.mode")
	if err != nil || job == nil {
		return []scheduler.Profile{base}, nil, err
	}
	if mode != "fine" {
		profiles, stages = core.StageShapes(base, job)
		return profiles, stages, nil
	}
	_, taskAccels, err := Accelerators(conf)
	if err != nil {
		return nil, nil, err
	}
	stages = make([]scheduler.ProfileID, len(job.Stages))
	for i, st := range job.Stages {
		accels, err := st.TaskAccels(taskAccels)
		if err != nil {
			return nil, nil, fmt.Errorf("stage %q: %w", st.Name, err)
		}
		p := scheduler.Profile{Cores: max(st.CPUs, 1), GPUs: int(math.Ceil(st.GPUs)), MemoryMB: base.MemoryMB, Accels: accels}
		if st.MemoryMB > 0 {
			p.MemoryMB = st.MemoryMB
		}
		profiles, stages[i] = core.WithShape(profiles, p)
	}
	return profiles, stages, nil
}

// ProfileRole names the executors of profile p in messages about the
// cluster's limits.
func ProfileRole(p scheduler.Profile, profiles []scheduler.Profile, stages []scheduler.ProfileID, job *jobspec.Job) string {
	if len(profiles) == 1 && stages == nil {
		return "executor"
	}
	var names []string
	for i, sp := range stages {
		if sp == p.ID {
			names = append(names, job.Stages[i].Name)
		}
	}
	if len(names) == 0 {
		return "executor" // the default, which no stage of the job needs
	}
	return fmt.Sprintf("executor of stage %v", names)
}
