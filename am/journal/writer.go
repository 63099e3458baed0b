package journal

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

const (
	// SnapshotEvery is how many deltas a writer writes between
	// snapshots.
	SnapshotEvery = 32
	// CommitInterval is the least time between two segments Run writes:
	// whatever the loop appends meanwhile goes into the next one (group
	// commit), so a busy session costs the store SegmentsPerSecond
	// segments a second however many tasks succeed, and Written is
	// closed within about this long.
	CommitInterval = 250 * time.Millisecond
	// SegmentsPerSecond is the most segments Run writes in a second
	// (and one more as it ends).
	SegmentsPerSecond = int(time.Second / CommitInterval)
	// retryMax bounds the wait after failed writes: a store that fails
	// is tried again after CommitInterval, twice that after a second
	// failure, and so on up to this.
	retryMax = 8 * time.Second
)

// WriterConfig is where and as whom a Writer writes.
type WriterConfig struct {
	// Store is where the segments go; nil for a writer that is only
	// appended to (a test reading its state).
	Store Store
	// Attempt is the AM attempt writing, from its container id: its
	// segments' names carry it.
	Attempt int
	// KeepEarlier leaves the earlier attempts' segments in the store: an
	// attempt that could not read them (the store unreachable) did not
	// take their work over, and removes none of it. Otherwise the
	// writer removes them once its first snapshot is written.
	KeepEarlier bool
	Log         logrus.FieldLogger
	// Meter, when set, is told of every segment written or refused.
	Meter Meter
}

// Meter is told, from the writer's goroutine, what it writes: the AM's
// metrics (am/metrics).
type Meter interface {
	// JournalWritten: a segment of segmentBytes was written, and the
	// journal the next attempt would read (the last snapshot and the
	// deltas after it) is now journalBytes.
	JournalWritten(segmentBytes, journalBytes int)
	// JournalRefused: a segment of segmentBytes was not written, being
	// over MaxSegmentBytes (or a Limited store's limit).
	JournalRefused(segmentBytes int)
}

// Writer journals what the AM's loop tells it, from its own goroutine:
// the loop never waits on the store. It keeps the state the journal
// says, so that a snapshot costs no read, and after a failed write it
// writes a snapshot: what the lost delta held is in it, and memory stays
// the size of the state however long the store is away.
type Writer struct {
	cfg   WriterConfig
	limit int // MaxSegmentBytes, or a Limited store's limit under it

	mu      sync.Mutex
	state   *State
	pending []Entry
	// pendingDone are pending's TasksDone entries by stage: a delta
	// holds one per stage.
	pendingDone  map[stageKey]*TasksDone
	next         int  // the next segment's place in this attempt's chain
	deltas       int  // written since the last snapshot
	whole        bool // the next segment must be a snapshot
	journalBytes int  // the last snapshot's and the deltas' after it
	wake         chan struct{}
	// waiting are Written's channels, closed by the next segment written.
	waiting []chan struct{}
}

type stageKey struct{ job, stage int }

// NewWriter writes cfg.Attempt's chain of the journal on from state st
// (what Load read, or a new State): its first segment, which Run writes
// at once, is a snapshot of st. From then on this attempt's chain is
// the one a reader takes, and an older attempt's writes are ignored.
func NewWriter(cfg WriterConfig, st *State) *Writer {
	if cfg.Log == nil {
		cfg.Log = logrus.StandardLogger()
	}
	if cfg.Meter == nil {
		cfg.Meter = noMeter{}
	}
	w := &Writer{cfg: cfg, limit: MaxSegmentBytes, state: st, pendingDone: map[stageKey]*TasksDone{}, whole: true, wake: make(chan struct{}, 1)}
	if l, ok := cfg.Store.(Limited); ok {
		w.limit = min(w.limit, l.SegmentLimit())
	}
	w.poke()
	return w
}

type noMeter struct{}

func (noMeter) JournalWritten(int, int) {}
func (noMeter) JournalRefused(int)      {}

// Append journals entries; they are written soon, in order. An entry
// the state refuses is a bug in the caller: it is logged and dropped.
func (w *Writer) Append(entries ...Entry) {
	w.mu.Lock()
	for _, e := range entries {
		if err := w.state.Apply(e); err != nil {
			w.cfg.Log.WithError(err).Error("journal: entry refused")
			continue
		}
		w.queue(e)
	}
	w.mu.Unlock()
	w.poke()
}

// queue adds an entry to the next delta, a stage's done tasks to the
// entry of that stage's already there. Moving them up past what came
// between changes nothing a reader makes of them: their job came before
// that entry, and a job's end only makes its tasks not matter.
func (w *Writer) queue(e Entry) {
	if d := e.TasksDone; d != nil {
		k := stageKey{d.Job, d.Stage}
		if q := w.pendingDone[k]; q != nil {
			q.Tasks.addAll(&d.Tasks)
			return
		}
		q := &TasksDone{Job: d.Job, Stage: d.Stage, Tasks: d.Tasks.clone()}
		w.pendingDone[k] = q
		e = Entry{TasksDone: q}
	}
	w.pending = append(w.pending, e)
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
// a short while. It starts a segment at most every CommitInterval, and
// after failed writes waits longer (up to 8s) before the next try.
func (w *Writer) Run(ctx context.Context) {
	var last time.Time
	failures := 0
	for {
		select {
		case <-ctx.Done():
			w.last(ctx)
			return
		case <-w.wake:
		}
		if !sleepUntil(ctx, NextFlush(last, failures)) {
			w.last(ctx)
			return
		}
		last = time.Now()
		if w.Flush(ctx) != nil {
			failures++
		} else {
			failures = 0
		}
	}
}

// NextFlush is the earliest Run starts a segment after one it started
// at last, failures writes having failed since the last that did not:
// CommitInterval after it, twice that after a failure, and so on up to
// 8s. (A first segment, with last zero, is due at once.)
func NextFlush(last time.Time, failures int) time.Time {
	return last.Add(min(CommitInterval<<min(failures, 6), retryMax))
}

// last writes what is pending as Run ends, within a short while.
func (w *Writer) last(ctx context.Context) {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	w.Flush(fctx)
}

// sleepUntil waits until t, or says false when ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
