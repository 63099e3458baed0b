package jobspec

import (
	"math"

	"go.yaml.in/yaml/v3"

	"github.com/spindle-yarn/spindle/scheduler"
)

// placement reads a stage's own placement of its executors: spread, pack,
// or {maxPerNode: N}. Whether the cluster can place it is YARN's to say,
// at submit (docs/yarn.md).
func (d *decoder) placement(n *yaml.Node, path string) scheduler.Placement {
	if n.Kind == yaml.ScalarNode {
		s, ok := d.text(n, path)
		switch {
		case !ok:
		case s == string(scheduler.Spread) || s == string(scheduler.Pack):
			return scheduler.Placement{Affinity: scheduler.Affinity(s)}
		default:
			d.errorf(n.Line, path, "%s: want spread, pack or {maxPerNode: N}", describe(n))
		}
		return scheduler.Placement{}
	}
	f := d.fields(n, path, []string{"maxPerNode"}, nil)
	e, ok := f["maxPerNode"]
	if !ok {
		if f != nil {
			d.errorf(n.Line, join(path, "maxPerNode"), "missing: want spread, pack or {maxPerNode: N}")
		}
		return scheduler.Placement{}
	}
	most, ok := d.int(e.value, join(path, "maxPerNode"), 1)
	if !ok {
		return scheduler.Placement{}
	}
	if most > math.MaxInt32 { // YARN's cardinalities are int32
		d.errorf(e.value.Line, join(path, "maxPerNode"), "%d: too large", most)
		return scheduler.Placement{}
	}
	return scheduler.Placement{MaxPerNode: most}
}
