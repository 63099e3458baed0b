package yarn_test

import (
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The vector is Hadoop 3.5.0's own encoding of this request (its
// SchedulingRequestProto builder and PlacementConstraintToProtoConverter
// over and(maxCardinality(NODE, 0, tag), targetNodeAttribute(NODE, EQ,
// gpu_type=A100), targetNodeAttribute(NODE, NE, python=3))): ours must be
// the same bytes, so that the RM reads what we mean.
func TestSchedulingRequestMatchesHadoopsBytes(t *testing.T) {
	raw, err := os.ReadFile("testdata/scheduling_request.hex")
	if err != nil {
		t.Fatal(err)
	}
	want, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := yarn.ParseNodeAttributes("AND(gpu_type=A100:python!=3)")
	if err != nil {
		t.Fatal(err)
	}
	p := yarn.Placement{MaxPerNode: 1, Attributes: attrs}
	req := yarn.SchedulingRequest(3, 2, 2, yarn.NewResource(1024, 2, nil), "spindle-executor", p.Constraint("spindle-executor"))
	got, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(got) != hex.EncodeToString(want) {
		var back hadoopyarn.SchedulingRequestProto
		_ = proto.Unmarshal(want, &back)
		t.Fatalf("ours:\n%x\nHadoop's:\n%x\nHadoop's decoded: %v\nours: %v", got, want, &back, req)
	}
}

// A node label beside constraints is one more target of theirs: the
// vectors are Hadoop 3.5.0's encodings of targetNotIn(NODE,
// allocationTag(tag), nodePartition("gpu-a100")), spread on a label's
// nodes, and of targetIn(NODE, nodePartition("gpu-a100")), pack's anchor
// there (nothing else asked of it). A label alone asks nothing of
// placement. (Hadoop's record builder fills the request's other fields
// its own way: the constraints are compared.)
func TestPartitionMatchesHadoopsBytes(t *testing.T) {
	for _, c := range []struct {
		file string
		p    yarn.Placement
	}{
		{"testdata/scheduling_request_partition.hex", yarn.Placement{Affinity: yarn.AffinitySpread, Partition: "gpu-a100"}},
		{"testdata/scheduling_request_partition_alone.hex", yarn.Placement{Affinity: yarn.AffinityPack, Partition: "gpu-a100"}},
	} {
		raw, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := hex.DecodeString(strings.TrimSpace(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		var hadoops hadoopyarn.SchedulingRequestProto
		if err := proto.Unmarshal(want, &hadoops); err != nil {
			t.Fatal(err)
		}
		if got := c.p.Constraint("spindle-executor"); !proto.Equal(got, hadoops.GetPlacementConstraint()) {
			t.Errorf("%s: ours %v, Hadoop's %v", c.file, got, hadoops.GetPlacementConstraint())
		}
	}
	if p := (yarn.Placement{Partition: "gpu-a100"}); p.Constrained() || p.Constraint("t") != nil {
		t.Errorf("a label alone asks placement: %v", p.Constraint("t"))
	}
}

func TestPlacementConstraints(t *testing.T) {
	tag := "t"
	simple := func(p yarn.Placement) *hadoopyarn.SimplePlacementConstraintProto {
		t.Helper()
		c := p.Constraint(tag)
		if c == nil || c.SimpleConstraint == nil {
			t.Fatalf("%+v: %v, want one simple constraint", p, c)
		}
		return c.SimpleConstraint
	}
	card := func(s *hadoopyarn.SimplePlacementConstraintProto) [2]int32 {
		return [2]int32{s.GetMinCardinality(), s.GetMaxCardinality()}
	}
	// maxPerNode k: at most k-1 others already there; at the limit 1
	// that is anti-affinity's 0..0.
	for k, want := range map[int][2]int32{1: {0, 0}, 2: {0, 1}, 4: {0, 3}} {
		s := simple(yarn.Placement{MaxPerNode: k})
		if card(s) != want || s.GetScope() != "node" || s.TargetExpressions[0].GetTargetType() != hadoopyarn.PlacementConstraintTargetProto_ALLOCATION_TAG ||
			s.TargetExpressions[0].GetTargetKey() != "self" || s.TargetExpressions[0].TargetValues[0] != tag {
			t.Errorf("maxPerNode %d: %v, want cardinality %v on the self tag at node scope", k, s, want)
		}
	}
	if s := simple(yarn.Placement{Affinity: yarn.AffinitySpread}); card(s) != [2]int32{0, 0} {
		t.Errorf("spread: %v", s)
	}
	s := simple(yarn.Placement{Attributes: []yarn.AttributeTerm{{Name: "rm.yarn.io/gpu_type", Value: "T4", Not: true}}})
	if s.GetAttributeOpCode() != hadoopyarn.NodeAttributeOpCodeProto_NE || s.TargetExpressions[0].GetTargetType() != hadoopyarn.PlacementConstraintTargetProto_NODE_ATTRIBUTE ||
		s.TargetExpressions[0].GetTargetKey() != "rm.yarn.io/gpu_type" || s.TargetExpressions[0].TargetValues[0] != "T4" {
		t.Errorf("gpu_type!=T4: %v", s)
	}
	if c := (yarn.Placement{Affinity: yarn.AffinityNone}).Constraint(tag); c != nil {
		t.Errorf("nothing asked: %v, want no constraint", c)
	}
	if (yarn.Placement{Affinity: yarn.AffinityNone}).Constrained() || !(yarn.Placement{MaxPerNode: 1}).Constrained() {
		t.Error("Constrained: wrong")
	}
}

// Pack's anchor asks nothing of its tag (it has nothing to be near); the
// asks after it ask affinity, targetIn(NODE, tag): at least 1 tagged
// container already on the node, at most Integer.MAX_VALUE, on top of
// the rest of what is asked.
func TestPlacementPackAnchorThenNear(t *testing.T) {
	tag := "t"
	pack := yarn.Placement{Affinity: yarn.AffinityPack}
	if !pack.Constrained() {
		t.Error("pack alone: not constrained, would go out as plain ResourceRequests")
	}
	if c := pack.Constraint(tag); c != nil {
		t.Errorf("pack's anchor: %v, want no constraint", c)
	}
	s := pack.NearConstraint(tag).GetSimpleConstraint()
	if s.GetMinCardinality() != 1 || s.GetMaxCardinality() != math.MaxInt32 || s.GetScope() != "node" ||
		s.TargetExpressions[0].GetTargetType() != hadoopyarn.PlacementConstraintTargetProto_ALLOCATION_TAG ||
		s.TargetExpressions[0].GetTargetKey() != "self" || s.TargetExpressions[0].TargetValues[0] != tag {
		t.Errorf("pack once anchored: %v, want cardinality 1..MaxInt32 of the self tag at node scope", s)
	}
	attr := []yarn.AttributeTerm{{Name: "rm.yarn.io/gpu_type", Value: "A100"}}
	withAttr := yarn.Placement{Affinity: yarn.AffinityPack, Attributes: attr, MaxPerNode: 3}
	anchor := withAttr.Constraint(tag).GetCompositeConstraint().GetChildConstraints()
	near := withAttr.NearConstraint(tag).GetCompositeConstraint().GetChildConstraints()
	if len(anchor) != 2 || len(near) != 3 || near[2].GetSimpleConstraint().GetMinCardinality() != 1 ||
		near[0].GetSimpleConstraint().GetMaxCardinality() != 2 || near[1].GetSimpleConstraint().GetAttributeOpCode() != hadoopyarn.NodeAttributeOpCodeProto_EQ {
		t.Errorf("pack, maxPerNode=3 and an attribute: anchor %v, near %v; want maxPerNode and the attribute in both, affinity last in near", anchor, near)
	}
}

func TestPlacementSupportedBy(t *testing.T) {
	spread := yarn.Placement{Affinity: yarn.AffinitySpread}
	one := yarn.Placement{MaxPerNode: 1}
	two := yarn.Placement{MaxPerNode: 2}
	attr := yarn.Placement{Attributes: []yarn.AttributeTerm{{Name: "rm.yarn.io/a", Value: "b"}}}
	for _, c := range []struct {
		p       yarn.Placement
		handler string
		want    string // "" : supported
	}{
		{spread, "placement-processor", ""},
		{two, "placement-processor", ""},
		{attr, "placement-processor", ""},
		{spread, "scheduler", ""},
		{one, "scheduler", ""},
		{two, "scheduler", "more than anti-affinity (one executor a node), all its yarn.resourcemanager.placement-constraints.handler=scheduler supports: the cluster must set it to placement-processor"},
		{attr, "scheduler", "more than anti-affinity"},
		{yarn.Placement{Affinity: yarn.AffinitySpread, Attributes: attr.Attributes}, "scheduler", "more than anti-affinity"},
		{spread, "disabled", "handler is disabled (it rejects them): the cluster must set it to placement-processor or scheduler"},
		{spread, "", "handler is disabled"},
		{spread, "bogus", `the ResourceManager's is "bogus"`},
		{yarn.Placement{Affinity: yarn.AffinityPack}, "placement-processor", ""},
		{yarn.Placement{Affinity: yarn.AffinityPack, MaxPerNode: 1}, "scheduler", "more than anti-affinity"},
		{yarn.Placement{}, "disabled", ""},
	} {
		err := c.p.SupportedBy(c.handler, "KEYS")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v under %q: %v", c.p, c.handler, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "KEYS")):
			t.Errorf("%+v under %q: %v, want an error naming the keys and %q", c.p, c.handler, err, c.want)
		}
	}
}

func TestParseNodeAttributes(t *testing.T) {
	for in, want := range map[string]string{
		"gpu_type=A100":                              "rm.yarn.io/gpu_type=A100",
		" rm.yarn.io/gpu_type = A100 ":               "rm.yarn.io/gpu_type=A100",
		"nm.yarn.io/python!=3":                       "nm.yarn.io/python!=3",
		"AND(gpu_type=A100:python!=3)":               "rm.yarn.io/gpu_type=A100 rm.yarn.io/python!=3",
		"and(a_b-c=1.8)":                             "rm.yarn.io/a_b-c=1.8",
		"x=" + strings.Repeat("v", 255):              "rm.yarn.io/x=" + strings.Repeat("v", 255),
		"AND(" + strings.Repeat("a=b:", 15) + "a=b)": strings.TrimSpace(strings.Repeat("rm.yarn.io/a=b ", 16)),
	} {
		terms, err := yarn.ParseNodeAttributes(in)
		var got []string
		for _, tm := range terms {
			got = append(got, tm.String())
		}
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("%q: %v, %v; want %s", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                                    "empty",
		"gpu_type":                            "compares nothing",
		"gpu_type=":                           "empty attribute value",
		"=A100":                               "empty attribute name",
		"other.io/gpu=A100":                   `prefix "other.io" is neither`,
		"gpu type=A100":                       `' ' at 3`,
		"gpu.type=A100":                       "'.' at 3; YARN takes a letter or digit first, then letters, digits, '_', '-' (no '.'",
		"-gpu=A100":                           `'-' at 0`,
		"OR(a=b:c=d)":                         "write one comparison",
		"AND(a=b:c)":                          "compares nothing",
		"AND()":                               "compares nothing",
		"x=" + strings.Repeat("v", 255) + "1": "at most 255",
		"AND(" + strings.Repeat("a=b:", 16) + "a=b)": "17 comparisons, at most 16",
		strings.Repeat("a", 9000):                    "at most 8416",
	} {
		if _, err := yarn.ParseNodeAttributes(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: %v, want an error saying %q", in, err, want)
		}
	}
}

// Whatever ParseNodeAttributes accepts prints back to an expression that
// parses to the same terms, each within YARN's bounds.
func FuzzParseNodeAttributes(f *testing.F) {
	for _, s := range []string{"gpu_type=A100", "AND(gpu_type=A100:python!=3)", "nm.yarn.io/a!=b", "AND(", "a=b=c", "x/y/z=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := yarn.ParseNodeAttributes(s)
		if err != nil {
			return
		}
		if len(terms) == 0 || len(terms) > 16 {
			t.Fatalf("%q: %d terms", s, len(terms))
		}
		var parts []string
		for _, tm := range terms {
			if len(tm.Value) > 255 || !strings.HasPrefix(tm.Name, "rm.yarn.io/") && !strings.HasPrefix(tm.Name, "nm.yarn.io/") {
				t.Fatalf("%q: term %+v out of bounds", s, tm)
			}
			parts = append(parts, tm.String())
		}
		again, err := yarn.ParseNodeAttributes("AND(" + strings.Join(parts, ":") + ")")
		if err != nil || len(again) != len(terms) {
			t.Fatalf("%q → %v → %v, %v", s, terms, again, err)
		}
		for i := range again {
			if again[i] != terms[i] {
				t.Fatalf("%q: term %d %+v came back %+v", s, i, terms[i], again[i])
			}
		}
	})
}
