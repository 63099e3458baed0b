package core

import "github.com/spindle-yarn/spindle/scheduler"

// ask brings profile p's outstanding containers to n and returns the asks
// to send for it.
//
// Packed (its stages' placement: pack, or the application's,
// ContainerConfig.Pack, where they name none), a profile's executors go to one node by
// YARN's node-scope affinity to their own allocation tag, which the
// placement processor can meet only where a container with that tag is
// already placed: an ask with it and nothing placed is rejected, however
// long it waits. So, as Hadoop's tests of affinity ask an anchor first,
// a profile with no live executor asks one, without affinity (its anchor)
// and drops any ask near executors that are gone; once one is live, the
// rest are asked near it. The decision is the core's, not the RM
// client's: only the core knows which containers of a profile are live;
// am/rm_placement.go only spells Near out as the constraint.
func (k *containers) ask(p scheduler.Profile, n int) []Ask {
	if !packs(p, k.cfg.Pack) {
		return k.asks.want(p, n, false)
	}
	if k.liveOf(p.ID) == 0 {
		return append(k.asks.want(p, 0, true), k.asks.want(p, min(n, 1), false)...)
	}
	return k.asks.want(p, max(n-k.asks.outstandingOf(p.ID, false), 0), true)
}

// packs says whether p's executors are packed: by its stages' own
// placement, else by the application's (app).
func packs(p scheduler.Profile, app bool) bool {
	if p.Placement.Set() {
		return p.Placement.Affinity == scheduler.Pack
	}
	return app
}
