package settings

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

func TestPlacementKeys(t *testing.T) {
	read := func(overrides ...string) (Placement, error) {
		t.Helper()
		conf, err := config.LoadFiles(nil, overrides)
		if err != nil {
			return Placement{}, err
		}
		return ContainerPlacement(conf, hadoopconf.New(hadoopconf.Env{}))
	}
	p, err := read()
	if err != nil || p.Constraints.Constrained() {
		t.Fatalf("defaults: %+v, %v; want no constraint", p, err)
	}
	p, err = read("spindle.yarn.executor.maxPerNode=1", "spindle.yarn.executor.placement=spread", "spindle.yarn.executor.nodeAttributes=AND(gpu_type=A100:nm.yarn.io/os!=el7)")
	want := []yarn.AttributeTerm{{Name: "rm.yarn.io/gpu_type", Value: "A100"}, {Name: "nm.yarn.io/os", Value: "el7", Not: true}}
	if err != nil || p.Constraints.MaxPerNode != 1 || p.Constraints.Affinity != yarn.AffinitySpread || len(p.Constraints.Attributes) != 2 ||
		p.Constraints.Attributes[0] != want[0] || p.Constraints.Attributes[1] != want[1] {
		t.Errorf("all three: %+v, %v", p.Constraints, err)
	}
	for _, c := range []struct {
		set  []string
		want string
	}{
		{[]string{"spindle.yarn.executor.maxPerNode=-1"}, "spindle.yarn.executor.maxPerNode"},
		{[]string{"spindle.yarn.executor.placement=scatter"}, "spindle.yarn.executor.placement"},
		{[]string{"spindle.yarn.executor.placement=pack", "spindle.yarn.executor.nodeLabelExpression=gpu||cpu"}, "nodeLabelExpression=gpu||cpu: beside spindle.yarn.executor.maxPerNode, .placement and .nodeAttributes the label goes in the placement constraints as YARN's node partition, which is one label"},
		{[]string{"spindle.yarn.executor.nodeAttributes=gpu_type"}, `spindle.yarn.executor.nodeAttributes: node attribute expression "gpu_type": "gpu_type" compares nothing`},
	} {
		if _, err := read(c.set...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.set, err, c.want)
		}
	}
	if p, err := read("spindle.yarn.executor.placement=pack"); err != nil || p.Constraints.Affinity != yarn.AffinityPack || !p.Constraints.Constrained() {
		t.Errorf("pack: %+v, %v; want it read, constrained", p.Constraints, err)
	}
	if p, err := read("spindle.yarn.executor.nodeLabelExpression=gpu", "spindle.yarn.executor.placement=none"); err != nil || p.NodeLabel != "gpu" {
		t.Errorf("a label and no constraint: %+v, %v", p, err)
	}
	// A label beside constraints is their node partition (am.ProfilePlacement).
	if p, err := read("spindle.yarn.executor.maxPerNode=2", "spindle.yarn.executor.nodeLabelExpression=gpu"); err != nil || p.NodeLabel != "gpu" || p.Constraints.MaxPerNode != 2 {
		t.Errorf("a label beside maxPerNode: %+v, %v; want both", p, err)
	}
}
