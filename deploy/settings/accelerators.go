package settings

import (
	"fmt"

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
