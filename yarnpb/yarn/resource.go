package yarn

import (
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Resource type names as YARN spells them.
const (
	Memory = "memory-mb" // MiB
	VCores = "vcores"
	GPU    = "yarn.io/gpu"
)

// NewResource builds a resource of memory MiB, vcores, and any other types
// by name (GPU: 1). Memory and vcores travel in their own fields, the rest
// in the resource map; the RM drops types it does not know, so check
// GetResourceTypeInfo before relying on one.
func NewResource(memoryMB int64, vcores int32, others map[string]int64) *hadoopyarn.ResourceProto {
	r := &hadoopyarn.ResourceProto{Memory: proto.Int64(memoryMB), VirtualCores: proto.Int32(vcores)}
	for _, name := range slices.Sorted(maps.Keys(others)) {
		r.ResourceValueMap = append(r.ResourceValueMap, &hadoopyarn.ResourceInformationProto{
			Key:   proto.String(name),
			Value: proto.Int64(others[name]),
		})
	}
	return r
}

// ResourceValue reads one type's amount from r, 0 when absent. Memory and
// vcores come from their fields; Hadoop also lists them in the map.
func ResourceValue(r *hadoopyarn.ResourceProto, name string) int64 {
	switch name {
	case Memory:
		if r.Memory != nil {
			return r.GetMemory()
		}
	case VCores:
		if r.VirtualCores != nil {
			return int64(r.GetVirtualCores())
		}
	}
	for _, ri := range r.GetResourceValueMap() {
		if ri.GetKey() == name {
			return ri.GetValue()
		}
	}
	return 0
}

// ResourceValues lists every type r carries, memory and vcores included.
func ResourceValues(r *hadoopyarn.ResourceProto) map[string]int64 {
	out := map[string]int64{Memory: ResourceValue(r, Memory), VCores: ResourceValue(r, VCores)}
	for _, ri := range r.GetResourceValueMap() {
		if _, done := out[ri.GetKey()]; !done {
			out[ri.GetKey()] = ri.GetValue()
		}
	}
	return out
}
