package yarnapp

import (
	"context"
	"fmt"
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
}

// Check tells, before anything is submitted, whether the cluster can ever
// grant asks in queue: the RM silently drops a resource type it does not
// know, and a container above the maximum allocation or a queue that does
// not exist would fail the application only later. max is the maximum
// capability the RM gave with the new application id.
func Check(ctx context.Context, rm *yarn.ApplicationClient, max *hadoopyarn.ResourceProto, queue string, asks []Ask) error {
	wantsGPU := false
	for _, a := range asks {
		wantsGPU = wantsGPU || a.GPUs > 0
	}
	if wantsGPU {
		types, err := rm.GetResourceTypeInfo(ctx, &hadoopyarn.GetAllResourceTypeInfoRequestProto{})
		if err != nil {
			return fmt.Errorf("asking the ResourceManager for its resource types: %w", err)
		}
		var names []string
		known := false
		for _, t := range types.GetResourceTypeInfo() {
			names = append(names, t.GetName())
			known = known || t.GetName() == yarn.GPU
		}
		if !known {
			sort.Strings(names)
			return fmt.Errorf("the ResourceManager does not know the resource %s (it knows %s): GPUs cannot be asked for; add %s to yarn.resource-types on the cluster",
				yarn.GPU, strings.Join(names, ", "), yarn.GPU)
		}
	}
	for _, a := range asks {
		for _, r := range []struct {
			name string
			want int64
		}{{yarn.Memory, a.MemoryMB}, {yarn.VCores, int64(a.VCores)}, {yarn.GPU, int64(a.GPUs)}} {
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
