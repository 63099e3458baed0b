package core

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// The ask table raises with a new id for the difference, never re-sends
// an open ask, lowers the newest asks first, counts asks down as their
// containers arrive, and takes a container of an id no longer open as
// surplus.
func TestAskTableFollowsYARNsSemantics(t *testing.T) {
	p := scheduler.Profile{ID: 3}
	tb := newAskTable()
	step := func(want int, asks ...Ask) {
		t.Helper()
		if got := tb.want(p, want, false); !reflect.DeepEqual(got, asks) {
			t.Fatalf("want %d: sent %+v, want %+v", want, got, asks)
		}
	}
	step(2, Ask{ID: 1, Profile: p, Count: 2})
	step(2) // open: not sent again
	step(5, Ask{ID: 2, Profile: p, Count: 3})
	if got, ok := tb.arrived(1); !ok || got != p.ID {
		t.Fatalf("a container of ask 1: profile %d, %v", got, ok)
	}
	step(4) // 1 + 3 outstanding
	// Lowering to 1 takes from the newest first: ask 2 to 0, then ask 1.
	step(1, Ask{ID: 2, Profile: p, Count: 0})
	if tb.outstanding(p.ID) != 1 {
		t.Fatalf("%d outstanding, want 1", tb.outstanding(p.ID))
	}
	// The RM had allocated against ask 2 before it was lowered: surplus.
	if _, ok := tb.arrived(2); ok {
		t.Fatal("a container of a lowered-to-nothing ask is taken as wanted")
	}
	if _, ok := tb.arrived(1); !ok {
		t.Fatal("ask 1's last container is not taken")
	}
	if _, ok := tb.arrived(1); ok {
		t.Fatal("a container beyond ask 1's count is taken as wanted")
	}
	if tb.requested != 5 {
		t.Errorf("%d containers requested in all, want 5", tb.requested)
	}
	tb.forget()
	step(1, Ask{ID: 3, Profile: p, Count: 1})
}

// Asks near a profile's placed executors and its other asks (pack.go)
// are counted and lowered apart: lowering one kind never touches the
// other, though it is newer.
func TestAskTableKeepsNearAsksApart(t *testing.T) {
	p := scheduler.Profile{ID: 1}
	tb := newAskTable()
	tb.want(p, 2, true)
	tb.want(p, 1, false)
	if got, want := tb.want(p, 1, true), []Ask{{ID: 1, Profile: p, Count: 1, Near: true}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("lowering the near asks to 1: sent %+v, want %+v", got, want)
	}
	if tb.outstandingOf(p.ID, false) != 1 || tb.outstanding(p.ID) != 2 {
		t.Fatalf("%d other asks outstanding, %d in all; want 1 and 2", tb.outstandingOf(p.ID, false), tb.outstanding(p.ID))
	}
}

// Once a packed profile has a live executor, its asks near it bring
// what it is owed to n counting an anchor still open: the anchor will
// come too.
func TestPackCountsAnOpenAnchor(t *testing.T) {
	p := scheduler.Profile{ID: 0, Cores: 1}
	k := newContainers(&ContainerConfig{Pack: true}, []scheduler.Profile{p}, nil)
	k.asks.want(p, 1, false)
	k.live["c1"] = &container{profile: p}
	if got, want := k.ask(p, 3), []Ask{{ID: 2, Profile: p, Count: 2, Near: true}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("3 owed, an anchor open: asked %+v, want %+v", got, want)
	}
}
