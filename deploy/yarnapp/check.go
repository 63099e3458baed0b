package yarnapp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Ask is one kind of container an application will ask for.
type Ask struct {
	Role     string // "ApplicationMaster", "executor", ...
	MemoryMB int64
	VCores   int
	GPUs     int
	// Accels are its accelerators besides GPUs, as YARN resource types.
	Accels []AccelAsk
}

// AccelAsk is an amount of one accelerator as a YARN resource type, and
// the key that asks it, for messages.
type AccelAsk struct {
	Type   string // "yarn.io/fpga"
	Amount int64
	Key    string // "spindle.executor.resource.fpga.amount"
}

// Check tells, before anything is submitted, whether the cluster can ever
// grant asks in queue: the RM silently drops a resource type it does not
// know, and a container above the maximum allocation or a queue that does
// not exist would fail the application only later. max is the maximum
// capability the RM gave with the new application id.
func Check(ctx context.Context, rm *yarn.ApplicationClient, max *hadoopyarn.ResourceProto, queue string, asks []Ask) error {
	if err := checkResourceTypes(ctx, rm, asks); err != nil {
		return err
	}
	for _, a := range asks {
		type want struct {
			name string
			want int64
		}
		wants := []want{{yarn.Memory, a.MemoryMB}, {yarn.VCores, int64(a.VCores)}, {yarn.GPU, int64(a.GPUs)}}
		for _, x := range a.Accels {
			wants = append(wants, want{x.Type, x.Amount})
		}
		for _, r := range wants {
			if r.want == 0 {
				continue
			}
			if limit := yarn.ResourceValue(max, r.name); r.want > limit {
				return fmt.Errorf("the %s asks for %d %s, above the cluster's maximum allocation of %d %s (yarn.scheduler.maximum-allocation / the largest node)",
					a.Role, r.want, r.name, limit, r.name)
			}
		}
	}
	if queue != "" {
		// The CapacityScheduler answers an unknown queue with an empty
		// response, not an error.
		info, err := rm.GetQueueInfo(ctx, &hadoopyarn.GetQueueInfoRequestProto{QueueName: proto.String(queue)})
		if err != nil {
			return fmt.Errorf("queue %q: asking the ResourceManager about it: %w", queue, err)
		}
		if info.GetQueueInfo() == nil {
			return fmt.Errorf("queue %q: the ResourceManager has no such queue (spindle.yarn.queue)", queue)
		}
	}
	return nil
}

// checkResourceTypes refuses asks of a resource type the RM does not know
// (it would drop it silently), naming the type and the key that asks it.
func checkResourceTypes(ctx context.Context, rm *yarn.ApplicationClient, asks []Ask) error {
	wantsGPU, accels := false, map[string]AccelAsk{}
	for _, a := range asks {
		wantsGPU = wantsGPU || a.GPUs > 0
		for _, x := range a.Accels {
			accels[x.Type] = x
		}
	}
	if !wantsGPU && len(accels) == 0 {
		return nil
	}
	types, err := rm.GetResourceTypeInfo(ctx, &hadoopyarn.GetAllResourceTypeInfoRequestProto{})
	if err != nil {
		return fmt.Errorf("asking the ResourceManager for its resource types: %w", err)
	}
	known := map[string]bool{}
	var names []string
	for _, t := range types.GetResourceTypeInfo() {
		names = append(names, t.GetName())
		known[t.GetName()] = true
	}
	sort.Strings(names)
	if wantsGPU && !known[yarn.GPU] {
		return fmt.Errorf("the ResourceManager does not know the resource %s (it knows %s): GPUs cannot be asked for; add %s to yarn.resource-types on the cluster",
			yarn.GPU, strings.Join(names, ", "), yarn.GPU)
	}
	for _, t := range slices.Sorted(maps.Keys(accels)) {
		if !known[t] {
			return fmt.Errorf("%s: the ResourceManager does not know the resource type %s (it knows %s); add %s to yarn.resource-types on the cluster, or map the resource to a type it knows (spindle.yarn.resourceMapping)",
				accels[t].Key, t, strings.Join(names, ", "), t)
		}
	}
	return nil
}
