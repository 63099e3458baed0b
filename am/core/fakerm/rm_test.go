package fakerm

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func ask(id int64, profile scheduler.ProfileID, n int) core.Ask {
	return core.Ask{ID: id, Profile: scheduler.Profile{ID: profile}, Count: n}
}

func asks(cs []core.Container) []int64 {
	var out []int64
	for _, c := range cs {
		out = append(out, c.Ask)
	}
	return out
}

func same(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// An ask is the new count under its id, not an increment; ids not named
// keep theirs; a lower count cancels the id's newest requests.
func TestAsksAreAbsolute(t *testing.T) {
	var rm RM
	rm.Update(t0, []core.Ask{ask(1, 0, 2), ask(2, 0, 1)})
	rm.Update(t0, []core.Ask{ask(1, 0, 3)}) // one more under 1; 2 keeps its one
	if rm.Outstanding() != 4 || rm.Requested() != 4 {
		t.Fatalf("outstanding %d, requested %d; want 4 and 4", rm.Outstanding(), rm.Requested())
	}
	rm.Update(t0, []core.Ask{ask(1, 0, 3)}) // the same ask again asks for nothing more
	rm.Update(t0, []core.Ask{ask(1, 0, 1)}) // cancels 1's two newest
	if got := asks(rm.Grant(t0)); !same(got, []int64{1, 2}) {
		t.Fatalf("granted for asks %v, want [1 2]", got)
	}
	if rm.Requested() != 4 || rm.Outstanding() != 0 {
		t.Fatalf("requested %d, outstanding %d; want 4 and 0", rm.Requested(), rm.Outstanding())
	}
}

// A request is granted Delay after it was asked for, never before, and
// only in Grant (an allocate's answer).
func TestGrantWaitsDelay(t *testing.T) {
	rm := RM{Delay: 2 * time.Second}
	rm.Update(t0, []core.Ask{ask(1, 0, 1)})
	rm.Update(t0.Add(time.Second), []core.Ask{ask(1, 0, 2)})
	if got := rm.Grant(t0.Add(2*time.Second - 1)); len(got) != 0 {
		t.Fatalf("granted %v before the delay", got)
	}
	if got := rm.Grant(t0.Add(2 * time.Second)); len(got) != 1 || got[0].ID != "container_000000" || got[0].Node != "node-container_000000" {
		t.Fatalf("granted %+v at the first's due time, want container_000000 alone", got)
	}
	if got := rm.Grant(t0.Add(3 * time.Second)); len(got) != 1 || got[0].ID != "container_000001" {
		t.Fatalf("granted %+v at the second's due time, want container_000001", got)
	}
}

// Grants stop at Capacity; a release or an end frees room, and only an
// end is reported completed, once.
func TestCapacityReleaseAndEnd(t *testing.T) {
	rm := RM{Capacity: 2}
	rm.Update(t0, []core.Ask{ask(1, 0, 4)})
	got := rm.Grant(t0)
	if len(got) != 2 || rm.Held() != 2 || rm.Outstanding() != 2 {
		t.Fatalf("granted %d, held %d, outstanding %d; want 2, 2, 2", len(got), rm.Held(), rm.Outstanding())
	}
	rm.Release([]string{got[0].ID})
	rm.End(core.Completion{Container: got[1].ID, ExitStatus: 137})
	if rm.Held() != 0 {
		t.Fatalf("held %d after a release and an end", rm.Held())
	}
	if c := rm.Completed(); len(c) != 1 || c[0].Container != got[1].ID || c[0].ExitStatus != 137 {
		t.Fatalf("completed %+v, want the ended container alone", c)
	}
	if c := rm.Completed(); len(c) != 0 {
		t.Fatalf("completed %+v reported twice", c)
	}
	if more := rm.Grant(t0); len(more) != 2 {
		t.Fatalf("granted %d after room was freed, want 2", len(more))
	}
}

// Fill takes the oldest outstanding request of the profile; past them,
// the newest id asked for it (a surplus container); else 0.
func TestFill(t *testing.T) {
	var rm RM
	rm.Update(t0, []core.Ask{ask(1, 0, 1), ask(2, 1, 1)})
	rm.Update(t0, []core.Ask{ask(3, 0, 1)})
	for i, want := range []int64{1, 3, 3, 3} {
		if got := rm.Fill(0); got != want {
			t.Fatalf("fill %d of profile 0: ask %d, want %d", i, got, want)
		}
	}
	if got := rm.Fill(1); got != 2 {
		t.Fatalf("profile 1: ask %d, want 2", got)
	}
	if got := rm.Fill(7); got != 0 {
		t.Fatalf("a profile never asked for: ask %d, want 0", got)
	}
	if rm.Outstanding() != 0 {
		t.Fatalf("%d outstanding after every request was filled", rm.Outstanding())
	}
}

// Lowering an ask cancels its newest requests: the oldest keeps its place
// and its due time.
func TestLowerAskCancelsNewest(t *testing.T) {
	rm := RM{Delay: 2 * time.Second}
	rm.Update(t0, []core.Ask{ask(1, 0, 1)})
	rm.Update(t0.Add(time.Second), []core.Ask{ask(1, 0, 3)})
	rm.Update(t0.Add(time.Second), []core.Ask{ask(1, 0, 1)})
	if got := rm.Grant(t0.Add(2 * time.Second)); len(got) != 1 || rm.Outstanding() != 0 {
		t.Fatalf("granted %d at the first request's due time with %d outstanding, want it alone and none left", len(got), rm.Outstanding())
	}
}

// Forget drops the outstanding requests, not the containers held: an
// RM that restarted grants only what the AM asks anew.
func TestForgetDropsRequestsNotContainers(t *testing.T) {
	var rm RM
	rm.Update(t0, []core.Ask{ask(1, 0, 1)})
	held := rm.Grant(t0)
	rm.Update(t0, []core.Ask{ask(2, 0, 2)})
	rm.Forget()
	if rm.Outstanding() != 0 || rm.Held() != 1 || len(held) != 1 {
		t.Fatalf("after Forget: %d outstanding, %d held; want 0 and the 1 granted", rm.Outstanding(), rm.Held())
	}
	if got := rm.Grant(t0); len(got) != 0 {
		t.Errorf("granted %v of forgotten requests", asks(got))
	}
	rm.Update(t0, []core.Ask{ask(2, 0, 1)})
	if got := rm.Grant(t0); !same(asks(got), []int64{2}) {
		t.Errorf("asked anew, granted %v; want one of ask 2", asks(got))
	}
}
