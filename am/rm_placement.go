package am

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// executorTag is the allocation tag of profile p's executors: placement
// constraints count executors of one shape, so that where stages have
// profiles of their own, spread and maxPerNode hold among a stage's
// executors.
func executorTag(p scheduler.ProfileID) string { return fmt.Sprintf("spindle-executor-%d", p) }

// schedulingRequest is ask a as a SchedulingRequest under the same
// allocation request id and priority its ResourceRequest would have had,
// so that the ask table's rules hold alike: an open ask is never sent
// again unless lowered, and more wanted go out under a new id. An ask
// the core marks Near (placement=pack, am/core/pack.go) adds affinity to
// the profile's tag: which ask is near is the core's decision, this only
// spells it out.
func schedulingRequest(a core.Ask, place yarn.Placement, types map[string]string) *hadoopyarn.SchedulingRequestProto {
	tag := executorTag(a.Profile.ID)
	r := resourceRequest(a, "", types).GetCapability()
	c := place.Constraint(tag)
	if a.Near {
		c = place.NearConstraint(tag)
	}
	return yarn.SchedulingRequest(a.ID, priority(a.Profile.ID), a.Count, r, tag, c)
}

// placementOf is where profile p's executors go (ProfilePlacement).
func (r *rmState) placementOf(p scheduler.Profile) yarn.Placement {
	return ProfilePlacement(r.y.Placement, r.y.NodeLabel, p)
}

// ProfilePlacement is where profile p's executors go: the application's
// placement app (spindle.yarn.executor.*), with the affinity and bound of
// p's stages in place of its when they name their own (its node
// attributes stay), and p's node label, else the application's label, as
// the partition. A SchedulingRequest carries no label of its own: beside
// constraints the label is one of theirs (yarn.Placement.Partition),
// which YARN checks as it checks them; a label alone asks nothing of
// placement and goes out as a ResourceRequest's. Submission checks the
// same placements against the RM's handler.
func ProfilePlacement(app yarn.Placement, label string, p scheduler.Profile) yarn.Placement {
	place := app
	if p.Placement.Set() {
		place.Affinity, place.MaxPerNode = yarn.AffinityNone, p.Placement.MaxPerNode
		if p.Placement.Affinity != "" {
			place.Affinity = yarn.Affinity(p.Placement.Affinity)
		}
	}
	place.Partition = cmp.Or(p.NodeLabel, label)
	return place
}

// rejectedPlacement is why the RM's placement handler gave up on
// SchedulingRequests: the application fails with it, since what it asked
// cannot be placed on this cluster as it is (every node excluded by the
// constraint, or taken), and waiting would only hang. Pack is no
// exception: it is a requirement, not a preference (a stage that wants
// its GPUs on one node for NVLink is not served by executors spread
// over two), so executors that no longer fit beside the others fail the
// application, saying so, rather than run elsewhere. placed is the
// placement each tag's asks went out under.
func rejectedPlacement(rejected []*hadoopyarn.RejectedSchedulingRequestProto, placed map[string]yarn.Placement) string {
	if len(rejected) == 0 {
		return ""
	}
	var parts, wants []string
	pack := false
	for _, r := range rejected {
		req := r.GetRequest()
		tags := strings.Join(req.GetAllocationTags(), ",")
		parts = append(parts, fmt.Sprintf("ask %d for %d executor(s) tagged %s: %s",
			req.GetAllocationRequestId(), req.GetResourceSizing().GetNumAllocations(), tags, r.GetReason()))
		place := placed[tags]
		if w := describePlacement(place); !slices.Contains(wants, w) {
			wants = append(wants, w)
		}
		pack = pack || place.Affinity == yarn.AffinityPack
	}
	hint := ""
	if pack {
		hint = "; placement=pack puts every executor of a shape on the node of the first: no more may be asked than that node has room for " +
			"(spindle.executor.instances, spindle.dynamicAllocation.maxExecutors)"
	}
	return fmt.Sprintf("the ResourceManager rejected the executors' placement (%s): no node satisfies %s with room for them; "+
		"check spindle.yarn.executor.maxPerNode, .placement and .nodeAttributes, and the stages' placement and nodeLabel, against the cluster's nodes, their attributes and labels%s",
		strings.Join(parts, "; "), strings.Join(wants, " or "), hint)
}

// describePlacement says what place asks, in the keys' words.
func describePlacement(p yarn.Placement) string {
	var parts []string
	if p.MaxPerNode > 0 {
		parts = append(parts, fmt.Sprintf("maxPerNode=%d", p.MaxPerNode))
	}
	if p.Affinity == yarn.AffinitySpread || p.Affinity == yarn.AffinityPack {
		parts = append(parts, "placement="+string(p.Affinity))
	}
	for _, t := range p.Attributes {
		parts = append(parts, t.String())
	}
	if p.Partition != "" {
		parts = append(parts, "nodeLabel="+p.Partition)
	}
	return strings.Join(parts, ", ")
}
