package journal

import (
	"context"
	"testing"
)

func drain(c string, by int64) Entry {
	return Entry{Drain: &Drain{Container: c, Reason: "its node is being decommissioned", ReleaseBy: by, Decommissioning: true}}
}

// A drain reads back with its executor, in a snapshot too; it goes with
// the executor, or when its node is recommissioned; one of an executor
// the journal does not know is passed over.
func TestDrainsReadBackWithTheirExecutors(t *testing.T) {
	ctx := context.Background()
	store := Dir(t.TempDir())
	w := writer(store, NewState(app))
	w.Append(executor("c1"), executor("c2"), executor("c3"), executor("c4"),
		drain("c1", 1_700_000_000_000), drain("c2", 0), drain("c3", 5), drain("c4", 6), drain("c9", 7),
		Entry{ExecutorGone: "c3"}, Entry{Undrained: "c4"})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(st *State) {
		t.Helper()
		if len(st.Drains) != 2 || st.Drains["c1"].ReleaseBy != 1_700_000_000_000 || !st.Drains["c1"].Decommissioning || st.Drains["c2"].ReleaseBy != 0 {
			t.Fatalf("drains %+v: want c1's (by its time) and c2's (no time)", st.Drains)
		}
	}
	st, err := Load(ctx, store, app)
	if err != nil {
		t.Fatal(err)
	}
	check(st)
	again := NewState(app)
	for _, e := range st.Entries() {
		if err := again.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	check(again)
}

// A drain naming no container, or released before the epoch, is refused.
func TestADrainWithNoContainerIsRefused(t *testing.T) {
	st := NewState(app)
	for _, e := range []Entry{drain("", 5), drain("c1", -1)} {
		if err := st.Apply(e); err == nil {
			t.Errorf("%+v applied; want it refused", *e.Drain)
		}
	}
}
