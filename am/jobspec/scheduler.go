package jobspec

import (
	"fmt"
	"slices"

	"github.com/spindle-yarn/spindle/scheduler"
)

// SchedulerSpec is j as the scheduler core takes it, every stage running
// on executors of profile. MemoryMB has no part in it: it sizes
// containers, which is the caller's business. The error is for a stage with an
// input not yet given its tasks (SetInputTasks), or a Job not made by
// Parse, Load or Short, whose GPU amounts are unchecked.
func (j *Job) SchedulerSpec(profile scheduler.ProfileID) (scheduler.JobSpec, error) {
	spec := scheduler.JobSpec{Name: j.Name, Pool: j.Pool, Stages: make([]scheduler.StageSpec, len(j.Stages))}
	for i, s := range j.Stages {
		if s.Tasks < 1 {
			return scheduler.JobSpec{}, fmt.Errorf("stage %s: its input is not split into tasks yet (SetInputTasks)", s.Name)
		}
		var gpu scheduler.GPURequest
		if s.GPUs != 0 {
			var err error
			if gpu, err = scheduler.ParseGPURequest("stage "+s.Name+": gpus", s.GPUs); err != nil {
				return scheduler.JobSpec{}, err
			}
		}
		spec.Stages[i] = scheduler.StageSpec{
			Name:           s.Name,
			After:          slices.Clone(s.After),
			Tasks:          s.Tasks,
			Profile:        profile,
			Request:        scheduler.TaskRequest{CPUs: s.CPUs, GPU: gpu},
			MaxAttempts:    s.MaxAttempts,
			PreferredHosts: slices.Clone(s.PreferredHosts),
			Gang:           s.Gang,
		}
	}
	return spec, nil
}
