package localmode

import (
	"fmt"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
)

// workerAccelerators shares out the worker's addresses of each resource
// besides gpu that executors have (spindle.executor.resource.NAME.amount),
// as its GPUs are: each executor gets amount of them, disjoint, from
// spindle.worker.resource.NAME.addresses, its discovery script or the
// worker's resources file. Nil when executors have none.
func workerAccelerators(conf *config.Config, executors int) ([][]executor.Accelerator, error) {
	file, err := conf.String("spindle.worker.resourcesFile")
	if err != nil {
		return nil, err
	}
	var out [][]executor.Accelerator
	for _, r := range conf.Resources() {
		if r.ExecutorAmount == 0 {
			continue
		}
		src := executor.WorkerSources{Resource: r.Name, DiscoveryScript: r.WorkerDiscoveryScript, Addresses: r.WorkerAddresses}
		if r.WorkerDiscoveryScript == "" && r.WorkerAddresses == "" {
			src.ResourcesFile = file // where else the worker's addresses may be
		}
		addrs, err := executor.WorkerGPUs(src)
		if err != nil {
			return nil, err
		}
		if need := executors * r.ExecutorAmount; len(addrs) < need {
			return nil, fmt.Errorf("%d executors × %d %s each need %d %s addresses; the worker has %d (spindle.worker.resource.%s.addresses, .discoveryScript or spindle.worker.resourcesFile; fake ones will do: --conf spindle.worker.resource.%s.addresses=0,1)",
				executors, r.ExecutorAmount, r.Name, need, r.Name, len(addrs), r.Name, r.Name)
		}
		split, err := executor.SplitDisjoint(addrs, executors, r.ExecutorAmount)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		if out == nil {
			out = make([][]executor.Accelerator, executors)
		}
		for i := range out {
			out[i] = append(out[i], executor.Accelerator{Name: r.Name, Amount: r.ExecutorAmount, Addresses: split[i]})
		}
	}
	return out, nil
}
