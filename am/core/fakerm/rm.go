package fakerm

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
)

// RM is the fake ResourceManager. The zero value grants at once, without
// a limit.
type RM struct {
	// Delay is how long a request waits before it can be granted.
	Delay time.Duration
	// Capacity is how many containers the cluster holds at once; 0: no
	// limit.
	Capacity int

	requests  []request // outstanding, oldest first
	asks      []idInfo  // every id ever asked, in the order first asked
	held      map[string]bool
	completed []core.Completion
	granted   int // containers ever granted: names the next one
	requested int
}

// request is one container wanted under an allocation request id.
type request struct {
	ask     int64
	profile scheduler.ProfileID
	due     time.Time
}

type idInfo struct {
	id      int64
	profile scheduler.ProfileID
}

// Update applies an allocate's asks at now: each the new number of
// outstanding requests under its id.
func (rm *RM) Update(now time.Time, asks []core.Ask) {
	for _, a := range asks {
		rm.set(now, a)
	}
}

func (rm *RM) set(now time.Time, a core.Ask) {
	if !rm.known(a.ID) {
		rm.asks = append(rm.asks, idInfo{id: a.ID, profile: a.Profile.ID})
	}
	have := 0
	for _, q := range rm.requests {
		if q.ask == a.ID {
			have++
		}
	}
	for ; have < a.Count; have++ {
		rm.requested++
		rm.requests = append(rm.requests, request{ask: a.ID, profile: a.Profile.ID, due: now.Add(rm.Delay)})
	}
	for i := len(rm.requests) - 1; i >= 0 && have > a.Count; i-- {
		if rm.requests[i].ask == a.ID {
			rm.requests = append(rm.requests[:i], rm.requests[i+1:]...)
			have--
		}
	}
}

func (rm *RM) known(id int64) bool {
	for _, a := range rm.asks {
		if a.id == id {
			return true
		}
	}
	return false
}

// Forget drops every outstanding request, as an RM that restarted does
// (the AM then asks anew: core.Core.Resynced) and as YARN does with an
// AM attempt's asks when the attempt ends. Containers held stay held.
func (rm *RM) Forget() {
	rm.requests = nil
	rm.asks = nil
}

// Release gives containers back: they are no longer held.
func (rm *RM) Release(ids []string) {
	for _, id := range ids {
		delete(rm.held, id)
	}
}

// End is a container's end (its executor gone): it is no longer held, and
// the next answer reports it completed.
func (rm *RM) End(c core.Completion) {
	delete(rm.held, c.Container)
	rm.completed = append(rm.completed, c)
}

// Grant hands out, at now, a container for each request due, oldest
// first, while capacity lasts. Containers are named container_NNNNNN, each
// on a node of its own.
func (rm *RM) Grant(now time.Time) []core.Container {
	var out []core.Container
	for len(rm.requests) > 0 && !rm.requests[0].due.After(now) && (rm.Capacity == 0 || len(rm.held) < rm.Capacity) {
		q := rm.requests[0]
		rm.requests = rm.requests[1:]
		id := fmt.Sprintf("container_%06d", rm.granted)
		rm.granted++
		if rm.held == nil {
			rm.held = map[string]bool{}
		}
		rm.held[id] = true
		out = append(out, core.Container{ID: id, Node: "node-" + id, NodeName: "node-" + id, Ask: q.ask})
	}
	return out
}

// Completed hands over the completions not yet reported.
func (rm *RM) Completed() []core.Completion {
	c := rm.completed
	rm.completed = nil
	return c
}

// Fill is the allocation request id a container of profile p, handed out
// by the caller, fills: its oldest outstanding request, taken; else the
// newest id asked for p (a surplus container); else 0, no ask at all.
func (rm *RM) Fill(p scheduler.ProfileID) int64 {
	for i, q := range rm.requests {
		if q.profile == p {
			rm.requests = append(rm.requests[:i], rm.requests[i+1:]...)
			return q.ask
		}
	}
	var newest int64
	for _, a := range rm.asks {
		if a.profile == p {
			newest = a.id
		}
	}
	return newest
}

// Held is how many containers are granted and not yet released or ended.
func (rm *RM) Held() int { return len(rm.held) }

// Outstanding is how many requests wait to be granted.
func (rm *RM) Outstanding() int { return len(rm.requests) }

// Requested is how many containers were ever asked for: each rise of an
// ask counts.
func (rm *RM) Requested() int { return rm.requested }
