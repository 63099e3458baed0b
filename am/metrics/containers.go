package metrics

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// What only the loop sees of the ResourceManager (am/rm.go): containers
// asked, allocated and released, and how long each allocate takes.

// AllocateSent counts an allocate's new asks' containers and its
// releases. The core sends each ask once under a new allocation request
// id and sends an id again only to lower it (am/core/asks.go): only ids
// past the newest counted add containers, so that lowering an ask counts
// nothing. (After an RM restart the core asks anew under new ids: those
// count, asked again of the RM.) The loop's.
func (m *Metrics) AllocateSent(asks []core.Ask, released int) {
	if m == nil {
		return
	}
	for _, a := range asks {
		if a.ID > m.loop.lastAsk {
			m.loop.lastAsk = a.ID
			m.asked.Add(float64(a.Count))
		}
	}
	m.released.Add(float64(released))
}

// Allocated counts the containers an allocate's answer brought.
func (m *Metrics) Allocated(n int) {
	if m == nil {
		return
	}
	m.allocated.Add(float64(n))
}

// AllocateTook is one allocate call's round trip, answered or not.
func (m *Metrics) AllocateTook(d time.Duration) {
	if m == nil {
		return
	}
	m.allocateDurations.Observe(d.Seconds())
}
