package amtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
)

// turns holds the conditions tests await; the loop tries each at the end
// of every turn (am.Config.Turned), so that a waiting test wakes in the
// turn its condition comes true, and nothing asks the loop again and
// again meanwhile.
type turns struct {
	mu      sync.Mutex
	waiting []*waiter
}

type waiter struct {
	cond func(am.Turn) bool
	met  chan struct{}
	// seen is what the condition last saw, for a test that fails waiting.
	seen string
}

// turned tries every waiting condition, in the loop.
func (w *turns) turned(turn am.Turn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := w.waiting[:0]
	for _, x := range w.waiting {
		if x.cond(turn) {
			close(x.met)
			continue
		}
		kept = append(kept, x)
	}
	w.waiting = kept
}

func (w *turns) remove(x *waiter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, y := range w.waiting {
		if y == x {
			w.waiting = append(w.waiting[:i], w.waiting[i+1:]...)
			return
		}
	}
}

// Await waits for the end of a turn at which cond holds, and fails the
// test after Patience, or once Run has returned, saying it awaited what.
// cond runs in the loop, at the end of each turn: it reads the Turn (and
// whatever the loop alone writes, as a journal's state) and must not call
// into the driver or fail the test.
func (d *Driver) Await(t testing.TB, what string, cond func(am.Turn) bool) {
	t.Helper()
	d.await(t, what, func(turn am.Turn, _ *string) bool { return cond(turn) })
}

// AwaitStatus waits for the end of a turn whose Status satisfies cond
// (which runs in the loop, as Await's), and returns that Status.
func (d *Driver) AwaitStatus(t testing.TB, what string, cond func(core.Status) bool) core.Status {
	t.Helper()
	var met core.Status
	d.await(t, what, func(turn am.Turn, seen *string) bool {
		st := turn.Status()
		if !cond(st) {
			*seen = fmt.Sprintf("the last status: %+v", st)
			return false
		}
		met = st
		return true
	})
	return met
}

func (d *Driver) await(t testing.TB, what string, cond func(am.Turn, *string) bool) {
	t.Helper()
	x := &waiter{met: make(chan struct{})}
	x.cond = func(turn am.Turn) bool { return cond(turn, &x.seen) }
	d.turns.mu.Lock()
	d.turns.waiting = append(d.turns.waiting, x)
	d.turns.mu.Unlock()
	defer d.turns.remove(x)
	// A turn now: the condition may hold already, and nothing else may
	// come to end a turn.
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	d.Driver.Status(ctx)
	timeout := time.NewTimer(Patience)
	defer timeout.Stop()
	select {
	case <-x.met:
		return
	case <-d.done:
		select {
		case <-x.met: // at the last turn
			return
		default:
		}
		t.Fatalf("the driver's Run returned while awaiting %s (%s)", what, x.lastSeen(&d.turns))
	case <-timeout.C:
		t.Fatalf("awaited %s for %v (%s)", what, Patience, x.lastSeen(&d.turns))
	}
}

// lastSeen is what x's condition last saw, read under the lock the loop
// writes it under.
func (x *waiter) lastSeen(w *turns) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if x.seen == "" {
		return "no turn satisfied it"
	}
	return x.seen
}
