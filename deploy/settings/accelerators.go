package settings

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Accelerators are the resources besides gpu that
// spindle.executor.resource.NAME.amount gives each executor, and what
// spindle.task.resource.NAME.amount asks of them for every task. A task
// asking more than its executor has, or a resource its executors lack,
// is refused here, before anything starts, naming both keys.
func Accelerators(conf *config.Config) (executor, task scheduler.Accelerators, err error) {
	have, want := map[string]int{}, map[string]int{}
	for _, r := range conf.Resources() {
		have[r.Name], want[r.Name] = r.ExecutorAmount, r.TaskAmount
		if r.TaskAmount > r.ExecutorAmount {
			return executor, task, fmt.Errorf("spindle.task.resource.%s.amount %d: executors have %d (spindle.executor.resource.%s.amount)",
				r.Name, r.TaskAmount, r.ExecutorAmount, r.Name)
		}
	}
	if executor, err = scheduler.NewAccelerators(have); err != nil {
		return executor, task, fmt.Errorf("spindle.executor.resource.*.amount: %w", err)
	}
	task, err = scheduler.NewAccelerators(want)
	return executor, task, err
}

// ResourceTypes are the YARN resource types the accelerators executors
// have are asked as, by name (config.YARNResourceType: fpga is
// yarn.io/fpga, others what spindle.yarn.resourceMapping says), and
// those job's stages name (resources: {fpga: 2}; nil job: a session's,
// whose executors have only the first). One neither names is an error
// naming the key or the stage to change.
func ResourceTypes(conf *config.Config, job *jobspec.Job) (map[string]string, error) {
	raw, err := conf.String("spindle.yarn.resourceMapping")
	if err != nil {
		return nil, err
	}
	mapping, err := config.ParseResourceMapping(raw)
	if err != nil {
		return nil, err
	}
	types := map[string]string{}
	for _, r := range conf.Resources() {
		if r.ExecutorAmount == 0 {
			continue
		}
		t := config.YARNResourceType(mapping, r.Name)
		if t == "" {
			return nil, fmt.Errorf("spindle.executor.resource.%s.amount %d: %s has no YARN resource type; name it in spindle.yarn.resourceMapping, e.g. %s=example.com/%s",
				r.Name, r.ExecutorAmount, r.Name, r.Name, r.Name)
		}
		types[r.Name] = t
	}
	if job == nil {
		return types, nil
	}
	for _, st := range job.Stages {
		for _, name := range slices.Sorted(maps.Keys(st.Accels)) {
			t := config.YARNResourceType(mapping, name)
			if t == "" && st.Accels[name] > 0 {
				return nil, fmt.Errorf("stage %q: resources.%s: %s has no YARN resource type; name it in spindle.yarn.resourceMapping, e.g. %s=example.com/%s",
					st.Name, name, name, name, name)
			}
			if t != "" {
				types[name] = t
			}
		}
	}
	return types, nil
}
