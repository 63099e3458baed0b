package am

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A stage's own node label, on its profile, wins over the application's
// in the profile's ResourceRequests.
func TestStageLabelWinsInResourceRequests(t *testing.T) {
	p := scheduler.Profile{ID: 1, Cores: 1, MemoryMB: 512, NodeLabel: "gpu-t4"}
	if got := resourceRequest(core.Ask{ID: 1, Profile: p, Count: 1}, "app-label", nil).GetNodeLabelExpression(); got != "gpu-t4" {
		t.Errorf("a labelled profile asks with label %q, want its own gpu-t4", got)
	}
	p.NodeLabel = ""
	if got := resourceRequest(core.Ask{ID: 1, Profile: p, Count: 1}, "app-label", nil).GetNodeLabelExpression(); got != "app-label" {
		t.Errorf("an unlabelled profile asks with label %q, want the application's", got)
	}
}

// Packed, an ask the core marks Near goes out with node-scope affinity to
// its profile's tag (and the rest of what is asked), its anchor without;
// a rejection says what pack demands of the node.
func TestPackNearAsksCarryAffinityToTheirTag(t *testing.T) {
	place := yarn.Placement{Affinity: yarn.AffinityPack}
	p := scheduler.Profile{ID: 2, Cores: 1, MemoryMB: 512, GPUs: 1}
	if c := schedulingRequest(core.Ask{ID: 1, Profile: p, Count: 1}, place, nil).GetPlacementConstraint(); c != nil {
		t.Errorf("the anchor: %v, want no constraint", c)
	}
	sr := schedulingRequest(core.Ask{ID: 2, Profile: p, Count: 3, Near: true}, place, nil)
	s := sr.GetPlacementConstraint().GetSimpleConstraint()
	if s.GetMinCardinality() != 1 || s.GetTargetExpressions()[0].GetTargetValues()[0] != "spindle-executor-2" || sr.GetAllocationTags()[0] != "spindle-executor-2" {
		t.Errorf("near its anchor: %v, want affinity to spindle-executor-2", sr)
	}
	why := rejectedPlacement([]*hadoopyarn.RejectedSchedulingRequestProto{{Reason: hadoopyarn.RejectionReasonProto_RRP_COULD_NOT_PLACE_ON_NODE.Enum(), Request: sr}}, place)
	for _, want := range []string{"ask 2 for 3 executor(s) tagged spindle-executor-2", "no node satisfies placement=pack", "no more may be asked than that node has room for"} {
		if !strings.Contains(why, want) {
			t.Errorf("rejected: %q does not say %q", why, want)
		}
	}
}
