package journal

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// SnapshotEvery is how many deltas a writer writes between snapshots.
const SnapshotEvery = 32

// Writer journals what the AM's loop tells it, from its own goroutine:
// the loop never waits on the store. It keeps the state the journal
// says, so that a snapshot costs no read, and after a failed write it
// writes a snapshot: what the lost delta held is in it, and memory stays
// the size of the state however long the store is away.
type Writer struct {
	store Store
	log   logrus.FieldLogger

	mu      sync.Mutex
	state   *State
	pending []Entry
	next    int  // the next segment's number
	deltas  int  // written since the last snapshot
	whole   bool // the next segment must be a snapshot
	wake    chan struct{}
	// waiting are Written's channels, closed by the next segment written.
	waiting []chan struct{}
}

// NewWriter writes app's journal on from state st (Load's) and segment
// next; its first segment is a snapshot of st.
func NewWriter(store Store, st *State, next int, log logrus.FieldLogger) *Writer {
	return &Writer{store: store, log: log, state: st, next: next, whole: true, wake: make(chan struct{}, 1)}
}

// Append journals entries; they are written soon, in order. An entry
// the state refuses is a bug in the caller: it is logged and dropped.
func (w *Writer) Append(entries ...Entry) {
	w.mu.Lock()
	for _, e := range entries {
		if err := w.state.Apply(e); err != nil {
			w.log.WithError(err).Error("journal: entry refused")
			continue
		}
		w.pending = append(w.pending, e)
	}
	w.mu.Unlock()
	w.poke()
}

// Written returns a channel closed once everything appended before the
// call is in the store: a session answers a submit once its job is
// journalled, so that a job a client was told of survives the AM.
func (w *Writer) Written() <-chan struct{} {
	ch := make(chan struct{})
	w.mu.Lock()
	w.waiting = append(w.waiting, ch)
	w.mu.Unlock()
	w.poke()
	return ch
}

func (w *Writer) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run writes until ctx ends, then once more with what is pending, within
// a short while.
func (w *Writer) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			w.Flush(fctx)
			cancel()
			return
		case <-w.wake:
			w.Flush(ctx)
		}
	}
}

// Flush writes what is pending as one segment, a snapshot when one is
// due. One goroutine at a time may call it (Run's, or a test's).
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	waiting := w.waiting
	w.waiting = nil
	if len(w.pending) == 0 && !w.whole {
		w.mu.Unlock()
		closeAll(waiting)
		return nil
	}
	kind, entries := Delta, w.pending
	if w.whole || w.deltas >= SnapshotEvery {
		kind, entries = Snapshot, w.state.Entries()
	}
	data, err := Encode(w.state.App, kind, entries)
	n := w.next
	w.pending = nil
	w.mu.Unlock()
	if err == nil {
		err = w.store.Write(ctx, segmentName(n), data)
	}
	w.mu.Lock()
	if err != nil {
		w.whole = true
		w.waiting = append(waiting, w.waiting...) // the next snapshot holds theirs
		w.mu.Unlock()
		w.log.WithError(err).Warn("journal: a segment was not written; the next is a snapshot")
		return err
	}
	w.next = n + 1
	if kind == Delta {
		w.deltas++
		w.mu.Unlock()
		closeAll(waiting)
		return nil
	}
	w.whole, w.deltas = false, 0
	w.mu.Unlock()
	closeAll(waiting)
	w.removeBefore(ctx, n)
	return nil
}

func closeAll(chs []chan struct{}) {
	for _, ch := range chs {
		close(ch)
	}
}

// removeBefore removes the segments a snapshot n made needless.
func (w *Writer) removeBefore(ctx context.Context, n int) {
	names, err := w.store.List(ctx)
	if err != nil {
		return
	}
	for _, name := range names {
		if k, ok := segmentNumber(name); ok && k < n {
			if err := w.store.Remove(ctx, name); err != nil {
				w.log.WithError(err).WithField("segment", name).Warn("journal: an old segment was not removed")
			}
		}
	}
}
