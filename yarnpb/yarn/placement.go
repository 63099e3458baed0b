package yarn

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The values of yarn.resourcemanager.placement-constraints.handler.
const (
	HandlerDisabled  = "disabled"
	HandlerProcessor = "placement-processor"
	HandlerScheduler = "scheduler"
)

// Affinity is how an application's executors of one shape stand to each
// other: spread (anti-affinity, at most one on a node), pack (affinity:
// on the node of the others) or neither. Pack cannot be one ask: YARN's
// placement processor never places the first container of an ask with
// affinity to its own tag, which has nothing on any node to be near
// (rejected after its retries, seen on Hadoop 3.5.0). So, as Hadoop's own
// TestPlacementProcessor.testAffinityPlacement asks an anchor before the
// containers near it, the first goes out with Constraint and the rest,
// once it is placed, with NearConstraint (am/core/pack.go decides which).
type Affinity string

const (
	AffinityNone   Affinity = "none"
	AffinitySpread Affinity = "spread"
	AffinityPack   Affinity = "pack"
)

// Placement is what an application asks of where its containers go, on
// top of their size: YARN places such asks as SchedulingRequests with a
// placement constraint, through the RM's placement-constraints handler.
type Placement struct {
	// MaxPerNode bounds the containers of one tag on a node (0: no bound).
	MaxPerNode int
	Affinity   Affinity
	// Attributes must all hold on the node.
	Attributes []AttributeTerm
	// Partition is the node label (YARN's node partition) the containers
	// must go to ("": the default partition's nodes). It asks nothing of
	// placement by itself: a label alone goes out as a ResourceRequest's
	// node label expression; beside constraints it is one more target of
	// theirs (nodePartition, below).
	Partition string
}

// Constrained says whether p asks anything of placement: if not, plain
// ResourceRequests do.
func (p Placement) Constrained() bool {
	return p.MaxPerNode > 0 || p.Affinity == AffinitySpread || p.Affinity == AffinityPack || len(p.Attributes) > 0
}

// nodeScope is YARN's PlacementConstraints.NODE; selfTags the namespace
// of the application's own allocation tags; nodePartitionKey
// PlacementConstraints.NODE_PARTITION, the node attribute a target names
// to put containers on the nodes of a label.
const (
	nodeScope        = "node"
	selfTags         = "self"
	nodePartitionKey = "yarn_node_partition/"
)

// Constraint is p as YARN's placement constraint on containers tagged tag,
// encoded as Hadoop's PlacementConstraintToProtoConverter encodes
// PlacementConstraints' targetNotIn, maxCardinality and
// targetNodeAttribute (yarnpb/yarn/testdata/scheduling_request.hex); nil
// when p asks nothing. Several parts go out as their AND. Pack's affinity
// is not among them: this is the constraint of pack's anchor, the first
// executor, which has nothing to be near.
func (p Placement) Constraint(tag string) *hadoopyarn.PlacementConstraintProto {
	return and(p.parts(tag))
}

// NearConstraint is Constraint with node-scope affinity to tag on top
// (PlacementConstraints.targetIn(NODE, allocationTag(tag)), which Hadoop
// encodes as cardinality 1 to Integer.MAX_VALUE): a pack ask once its
// anchor is placed, for a node that already holds an executor tagged tag.
func (p Placement) NearConstraint(tag string) *hadoopyarn.PlacementConstraintProto {
	return and(append(p.parts(tag), tagCardinality(tag, 1, math.MaxInt32)))
}

// parts are p's constraints but pack's affinity. A partition goes in
// the tag's cardinality constraint as its second target, as Hadoop's
// targetNotIn(NODE, allocationTag(tag), nodePartition(label)) puts it:
// the one form the CapacityScheduler's own handler takes, which accepts a
// single constraint alone (SingleConstraintAppPlacementAllocator); with
// no such constraint (pack's anchor, attributes alone: the placement
// processor's, which checks every target) it is a constraint of its own,
// targetIn(NODE, nodePartition(label)).
func (p Placement) parts(tag string) []*hadoopyarn.PlacementConstraintProto {
	var parts []*hadoopyarn.PlacementConstraintProto
	switch {
	case p.Affinity == AffinitySpread:
		parts = append(parts, tagCardinality(tag, 0, 0))
	case p.MaxPerNode > 0:
		parts = append(parts, tagCardinality(tag, 0, p.MaxPerNode-1))
	}
	if p.Partition != "" && p.Constrained() {
		target := &hadoopyarn.PlacementConstraintTargetProto{
			TargetType:   hadoopyarn.PlacementConstraintTargetProto_NODE_ATTRIBUTE.Enum(),
			TargetKey:    proto.String(nodePartitionKey),
			TargetValues: []string{p.Partition},
		}
		if len(parts) > 0 {
			s := parts[0].SimpleConstraint
			s.TargetExpressions = append(s.TargetExpressions, target)
		} else {
			parts = append(parts, &hadoopyarn.PlacementConstraintProto{SimpleConstraint: &hadoopyarn.SimplePlacementConstraintProto{
				Scope:             proto.String(nodeScope),
				TargetExpressions: []*hadoopyarn.PlacementConstraintTargetProto{target},
				MinCardinality:    proto.Int32(1),
				MaxCardinality:    proto.Int32(math.MaxInt32),
				AttributeOpCode:   hadoopyarn.NodeAttributeOpCodeProto_NO_OP.Enum(),
			}})
		}
	}
	for _, t := range p.Attributes {
		parts = append(parts, attributeConstraint(t))
	}
	return parts
}

// and is parts as one constraint: nil for none, the one, or their AND.
func and(parts []*hadoopyarn.PlacementConstraintProto) *hadoopyarn.PlacementConstraintProto {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	return &hadoopyarn.PlacementConstraintProto{CompositeConstraint: &hadoopyarn.CompositePlacementConstraintProto{
		CompositeType:    hadoopyarn.CompositePlacementConstraintProto_AND.Enum(),
		ChildConstraints: parts,
	}}
}

// tagCardinality: between min and max containers tagged tag already on
// the node.
func tagCardinality(tag string, minimum, maximum int) *hadoopyarn.PlacementConstraintProto {
	return &hadoopyarn.PlacementConstraintProto{SimpleConstraint: &hadoopyarn.SimplePlacementConstraintProto{
		Scope: proto.String(nodeScope),
		TargetExpressions: []*hadoopyarn.PlacementConstraintTargetProto{{
			TargetType:   hadoopyarn.PlacementConstraintTargetProto_ALLOCATION_TAG.Enum(),
			TargetKey:    proto.String(selfTags),
			TargetValues: []string{tag},
		}},
		MinCardinality:  proto.Int32(int32(minimum)),
		MaxCardinality:  proto.Int32(int32(min(maximum, math.MaxInt32))),
		AttributeOpCode: hadoopyarn.NodeAttributeOpCodeProto_NO_OP.Enum(),
	}}
}

// attributeConstraint: the node's attribute compares as t says
// (cardinalities -1: unused, as YARN writes them).
func attributeConstraint(t AttributeTerm) *hadoopyarn.PlacementConstraintProto {
	op := hadoopyarn.NodeAttributeOpCodeProto_EQ
	if t.Not {
		op = hadoopyarn.NodeAttributeOpCodeProto_NE
	}
	return &hadoopyarn.PlacementConstraintProto{SimpleConstraint: &hadoopyarn.SimplePlacementConstraintProto{
		Scope: proto.String(nodeScope),
		TargetExpressions: []*hadoopyarn.PlacementConstraintTargetProto{{
			TargetType:   hadoopyarn.PlacementConstraintTargetProto_NODE_ATTRIBUTE.Enum(),
			TargetKey:    proto.String(t.Name),
			TargetValues: []string{t.Value},
		}},
		MinCardinality:  proto.Int32(-1),
		MaxCardinality:  proto.Int32(-1),
		AttributeOpCode: op.Enum(),
	}}
}

// SupportedBy says whether an RM whose placement-constraints handler is
// handler can place what p asks, and if not, why and what would: disabled
// rejects every SchedulingRequest; the CapacityScheduler's own handler,
// scheduler, takes anti-affinity alone (its
// SingleConstraintAppPlacementAllocator refuses any other cardinality,
// a node attribute's and pack's affinity included).
func (p Placement) SupportedBy(handler, keys string) error {
	if !p.Constrained() {
		return nil
	}
	switch handler {
	case HandlerProcessor:
		return nil
	case HandlerScheduler:
		if len(p.Attributes) > 0 || p.Affinity == AffinityPack || p.Affinity != AffinitySpread && p.MaxPerNode != 1 {
			return fmt.Errorf("%s ask the ResourceManager for more than anti-affinity (one executor a node), all its yarn.resourcemanager.placement-constraints.handler=%s supports: the cluster must set it to %s (or ask only spread, or maxPerNode=1)", keys, handler, HandlerProcessor)
		}
		return nil
	case "", HandlerDisabled:
		return fmt.Errorf("%s ask the ResourceManager to place executors by placement constraints, but its yarn.resourcemanager.placement-constraints.handler is %s (it rejects them): the cluster must set it to %s or %s", keys, HandlerDisabled, HandlerProcessor, HandlerScheduler)
	}
	return fmt.Errorf("%s need yarn.resourcemanager.placement-constraints.handler to be %s or %s; the ResourceManager's is %q", keys, HandlerProcessor, HandlerScheduler, handler)
}

// SchedulingRequest is an ask for n containers of resource r under
// allocation request id, at priority, tagged tag, placed as c says.
func SchedulingRequest(id int64, priority int32, n int, r *hadoopyarn.ResourceProto, tag string, c *hadoopyarn.PlacementConstraintProto) *hadoopyarn.SchedulingRequestProto {
	return &hadoopyarn.SchedulingRequestProto{
		AllocationRequestId: proto.Int64(id),
		Priority:            &hadoopyarn.PriorityProto{Priority: proto.Int32(priority)},
		AllocationTags:      []string{tag},
		ResourceSizing:      &hadoopyarn.ResourceSizingProto{NumAllocations: proto.Int32(int32(n)), Resources: r},
		PlacementConstraint: c,
	}
}
