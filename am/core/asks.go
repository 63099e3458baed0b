package core

import "github.com/spindle-yarn/spindle/scheduler"

// askTable is the AM's side of YARN's outstanding container requests.
//
// YARN keeps a count per ResourceRequest key — priority, allocation
// request id and capability — and takes each ask as that key's new total
// outstanding, counting it down by itself as it allocates. The AM learns
// of those allocations only in a later allocate's answer, so any ask it
// sends for a key may replace a count the RM has already lowered: the
// old total comes back, and what was just allocated is allocated again
// (Hadoop 3.5: 8 containers for 4 wanted, when every heartbeat re-sent
// the whole table). So:
//
//   - an open ask is never sent again unless it is lowered;
//   - more containers wanted go out as a new ask, under a new allocation
//     request id, for the difference: raising never touches a count the
//     RM may have lowered meanwhile;
//   - fewer wanted lower the newest open asks first (cancelling what the
//     RM is least likely to have started on); a container the RM had
//     already allocated against a lowered ask arrives as surplus and is
//     released;
//   - where executors are packed (pack.go), a profile's asks near its
//     placed executors and its anchor ask are counted apart: each kind is
//     raised and lowered by the rules above on its own, and an ask keeps
//     its kind for life, so that lowering it re-sends the constraint it
//     was sent with;
//   - each container that arrives counts its ask down, as the RM did, and
//     an ask with nothing outstanding leaves the table: a container for an
//     id no longer open is surplus, as is one without an id (ids start
//     at 1).
type askTable struct {
	open []*openAsk // by id
	next int64
	// requested counts the containers asked for in all.
	requested int
}

type openAsk struct {
	id          int64
	profile     scheduler.ProfileID
	outstanding int
	near        bool // asked near the profile's placed executors (pack.go)
}

func newAskTable() *askTable { return &askTable{next: 1} }

// outstanding counts profile p's containers asked for and not yet arrived.
func (t *askTable) outstanding(p scheduler.ProfileID) int {
	return t.outstandingOf(p, false) + t.outstandingOf(p, true)
}

// outstandingOf counts those of p's asks near its placed executors, or
// those of its other asks.
func (t *askTable) outstandingOf(p scheduler.ProfileID, near bool) int {
	n := 0
	for _, a := range t.open {
		if a.profile == p && a.near == near {
			n += a.outstanding
		}
	}
	return n
}

// want brings the outstanding count of p's asks of one kind (near its
// placed executors or not) to n and returns the asks to send for it:
// none when it is there already.
func (t *askTable) want(p scheduler.Profile, n int, near bool) []Ask {
	have := t.outstandingOf(p.ID, near)
	switch {
	case n > have:
		a := &openAsk{id: t.next, profile: p.ID, outstanding: n - have, near: near}
		t.next++
		t.open = append(t.open, a)
		t.requested += a.outstanding
		return []Ask{{ID: a.id, Profile: p, Count: a.outstanding, Near: near}}
	case n < have:
		var out []Ask
		cut := have - n
		for i := len(t.open) - 1; i >= 0 && cut > 0; i-- {
			a := t.open[i]
			if a.profile != p.ID || a.near != near {
				continue
			}
			d := min(cut, a.outstanding)
			a.outstanding -= d
			cut -= d
			out = append(out, Ask{ID: a.id, Profile: p, Count: a.outstanding, Near: near})
		}
		t.drop()
		return out
	}
	return nil
}

// arrived counts a container's ask down and says whose profile it is;
// false when no open ask has its id.
func (t *askTable) arrived(id int64) (scheduler.ProfileID, bool) {
	for _, a := range t.open {
		if a.id == id {
			a.outstanding--
			t.drop()
			return a.profile, true
		}
	}
	return 0, false
}

// forget empties the table: the RM forgot the application, and its asks
// with it.
func (t *askTable) forget() { t.open = nil }

// drop removes the asks with nothing outstanding.
func (t *askTable) drop() {
	kept := t.open[:0]
	for _, a := range t.open {
		if a.outstanding > 0 {
			kept = append(kept, a)
		}
	}
	clear(t.open[len(kept):])
	t.open = kept
}
