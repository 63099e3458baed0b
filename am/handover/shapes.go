package handover

import (
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage's profile travels to the next attempt whole: a session's
// profile added for a stage's own accelerators, node label or placement
// must be asked again as it was.

// shapeOf is profile p as the journal keeps it.
func shapeOf(p scheduler.Profile) journal.Shape {
	sh := journal.Shape{Cores: p.Cores, MemoryMB: p.MemoryMB, GPUs: p.GPUs, NodeLabel: p.NodeLabel,
		Affinity: string(p.Placement.Affinity), MaxPerNode: p.Placement.MaxPerNode}
	for _, x := range p.Accels.List() {
		if sh.Accels == nil {
			sh.Accels = map[string]int{}
		}
		sh.Accels[x.Name] = x.Amount
	}
	return sh
}

// profileOf is the profile a journal's shape keeps (its ID the caller's).
func profileOf(sh journal.Shape) (scheduler.Profile, error) {
	accels, err := scheduler.NewAccelerators(sh.Accels)
	return scheduler.Profile{Cores: sh.Cores, MemoryMB: sh.MemoryMB, GPUs: sh.GPUs, Accels: accels, NodeLabel: sh.NodeLabel,
		Placement: scheduler.Placement{Affinity: scheduler.Affinity(sh.Affinity), MaxPerNode: sh.MaxPerNode}}, err
}
