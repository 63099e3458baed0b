package scheduler

import (
	"slices"
	"sort"
)

// PoolStatus is one pool as a status page shows it.
type PoolStatus struct {
	Name     string
	Mode     SchedulingMode
	Weight   int
	MinShare int
	// Running and Pending count its active jobs' tasks; Jobs those jobs.
	Running, Pending, Jobs int
}

// Pools lists every pool in the order the fair-share algorithm would next
// serve them (below minShare first, then by running tasks per weight,
// then by name), whatever the mode: under FIFO it is what FAIR would do.
func (s *Scheduler) Pools() []PoolStatus {
	order := slices.Clone(s.poolOrder)
	sort.SliceStable(order, func(i, k int) bool { return fairLess(order[i], order[k]) })
	out := make([]PoolStatus, 0, len(order))
	for _, p := range order {
		st := PoolStatus{Name: p.cfg.Name, Mode: p.cfg.Mode, Weight: p.cfg.Weight, MinShare: p.cfg.MinShare, Running: p.running}
		for _, j := range s.jobs {
			if j.pool == p && !j.ended {
				st.Jobs++
				var pr Progress
				pr.add(j)
				st.Pending += pr.Pending
			}
		}
		out = append(out, st)
	}
	return out
}
