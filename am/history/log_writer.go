package history

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// RollBytes is how large a segment grows before the next one starts.
const RollBytes = 4 << 20

// FlushInterval is how often the writer writes what came.
const FlushInterval = 2 * time.Second

// Writer writes an application's events to its event log from its own
// goroutine: Append never waits on the store. A write that fails is
// tried again with the next flush, with everything since; what waits is
// bounded by the events the driver makes while the store is away.
type Writer struct {
	store SegmentStore
	log   logrus.FieldLogger

	// roll is the size a segment grows to (RollBytes); compact how much
	// is written after a snapshot before the next (CompactBytes) of
	// from, the Store that records what is appended (nil: never).
	roll, compact int
	from          *Store

	mu      sync.Mutex
	enc     encoder
	pending []byte // encoded lines not yet in the store
	wake    chan struct{}
	// since counts the bytes appended since the last snapshot;
	// snapshotting says one is being written, newSegment that it starts
	// the next segment.
	since                    int
	snapshotting, newSegment bool

	// The goroutine's own: the current segment's number and content,
	// and the segment the snapshot being written starts (0: none).
	seg, snapshotAt int
	data            []byte
}

// NewWriter writes to store, which must hold no segments yet, compacting
// it with snapshots of from, the Store that records the same events
// (nil: never compacted).
func NewWriter(store SegmentStore, from *Store, log logrus.FieldLogger) *Writer {
	return &Writer{store: store, from: from, log: log, roll: RollBytes, compact: CompactBytes, seg: 1, wake: make(chan struct{}, 1)}
}

// Continue reads into s what store holds (an earlier attempt of the
// application logged it: its UI shows it all) and returns a Writer that
// writes after it. A log that does not read is left as it is, and
// written after, with an error saying so: the history is the poorer,
// the application goes on.
func Continue(ctx context.Context, store SegmentStore, s *Store, log logrus.FieldLogger) (*Writer, error) {
	w := NewWriter(store, s, log)
	n, err := s.load(ctx, store)
	if err != nil {
		nums, lerr := segments(ctx, store)
		if lerr != nil {
			return nil, lerr
		}
		if len(nums) > 0 {
			n = nums[len(nums)-1]
		}
	}
	w.seg = n + 1
	return w, err
}

// Append queues events to write, encoded: a line costs less to hold
// than the event it is made from. Once CompactBytes came since the last
// snapshot, what is queued is replaced by a snapshot of the Store, which
// has recorded it (compact.go).
func (w *Writer) Append(events ...Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.pending)
	for i := range events {
		var err error
		if w.pending, err = w.enc.appendEvent(w.pending, &events[i]); err != nil {
			w.log.WithError(err).Error("event log: an event does not encode")
		}
	}
	if w.since += len(w.pending) - n; w.from != nil && w.since >= w.compact && !w.snapshotting {
		w.pending = w.pending[:0]
		for _, e := range w.from.Snapshot() {
			w.pending, _ = w.enc.appendEvent(w.pending, &e)
		}
		w.since, w.snapshotting, w.newSegment = 0, true, true
	}
	if len(w.pending) >= wakeBytes {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// wakeBytes is how many bytes waiting wake the writer before its tick:
// a segment's worth, so that a burst fills a segment in one write
// rather than rewriting it as it grows.
const wakeBytes = RollBytes

// Run writes every FlushInterval until ctx ends, then what is pending,
// within a short while.
func (w *Writer) Run(ctx context.Context) {
	t := time.NewTicker(FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if err := w.flush(fctx); err != nil {
				w.log.WithError(err).Warn("event log: the last events were not written")
			}
			return
		case <-t.C:
		case <-w.wake:
		}
		if err := w.flush(ctx); err != nil && ctx.Err() == nil {
			w.log.WithError(err).Warn("event log: not written; trying again")
		}
	}
}

// flush moves what is pending into segments: it fills the current one
// to RollBytes (cutting only at line ends) and rolls to the next.
func (w *Writer) flush(ctx context.Context) error {
	w.mu.Lock()
	pending := w.pending
	w.pending = nil
	if w.newSegment {
		w.newSegment = false
		if len(w.data) > 0 {
			w.seg, w.data = w.seg+1, nil
		}
		w.snapshotAt = w.seg
	}
	w.mu.Unlock()
	for len(pending) > 0 {
		n := take(pending, w.roll-len(w.data), len(w.data) == 0)
		if n == 0 {
			w.seg, w.data = w.seg+1, nil
			continue
		}
		data := append(w.data[:len(w.data):len(w.data)], pending[:n]...)
		if err := w.store.Write(ctx, segmentName(w.seg), data); err != nil {
			w.mu.Lock()
			w.pending = append(pending, w.pending...)
			w.mu.Unlock()
			return err
		}
		w.data, pending = data, pending[n:]
	}
	if w.snapshotAt > 0 {
		return w.removeBefore(ctx)
	}
	return nil
}

// removeBefore removes the segments before the snapshot just written
// whole: it holds all they held.
func (w *Writer) removeBefore(ctx context.Context) error {
	nums, err := segments(ctx, w.store)
	if err != nil {
		return err
	}
	for _, n := range nums {
		if n < w.snapshotAt {
			if err := w.store.Remove(ctx, segmentName(n)); err != nil {
				return err
			}
		}
	}
	w.snapshotAt = 0
	w.mu.Lock()
	w.snapshotting = false
	w.mu.Unlock()
	return nil
}

// take is how many bytes of whole lines from the head of p fit in room;
// an empty segment takes one line however long.
func take(p []byte, room int, empty bool) int {
	n := 0
	for n < len(p) {
		end := n
		for end < len(p) && p[end] != '\n' {
			end++
		}
		end++ // the newline
		if end > room && !(empty && n == 0) {
			break
		}
		n = end
	}
	return n
}
