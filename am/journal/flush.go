package journal

import (
	"context"

	"github.com/sirupsen/logrus"
)

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
		kind, entries = Snapshot, w.snapshot()
	}
	w.pending, w.pendingDone = nil, map[stageKey]*TasksDone{}
	seq := w.next
	w.mu.Unlock()
	data, kind, cut, err := w.encode(kind, entries)
	if err == nil {
		err = w.cfg.Store.Write(ctx, segment{w.cfg.Attempt, seq}.name(), data)
	}
	if err != nil {
		w.failed(waiting, err)
		return err
	}
	w.written(seq, kind, len(data))
	if cut {
		// What they waited for is not in the journal: their waits run
		// out (a session's submit says its job does not survive).
		waiting = nil
	}
	closeAll(waiting)
	if kind == Snapshot {
		w.removeBefore(ctx, seq)
	}
	return nil
}

// snapshot is the state's entries, with nothing left pending: they are
// in it. The caller holds mu.
func (w *Writer) snapshot() []Entry {
	w.pending, w.pendingDone = nil, map[stageKey]*TasksDone{}
	return w.state.Entries()
}

// encode encodes a segment a reader takes and the store holds: no
// longer than MaxSegmentBytes, or a Limited store's limit. A delta over it gives way to a snapshot; a snapshot
// over it to one cut down to the job and stage ids taken (cut), so that
// the next attempt starts the work over, as with a refused journal,
// but numbers its jobs past this one's, and the jobs submitted after it
// survive. Each refused segment is logged and counted.
func (w *Writer) encode(kind Kind, entries []Entry) (data []byte, _ Kind, cut bool, err error) {
	app := w.state.App // never changes
	data, err = Encode(app, kind, entries)
	if err != nil || len(data) <= w.limit {
		return data, kind, false, err
	}
	w.cfg.Meter.JournalRefused(len(data))
	log := w.cfg.Log.WithFields(logrus.Fields{"kind": kind, "bytes": len(data), "limit": w.limit})
	w.mu.Lock()
	if kind == Delta {
		entries = w.snapshot()
		w.mu.Unlock()
		log.Error("journal: a delta is over the limit a segment may have: a snapshot is written instead")
		return w.encode(Snapshot, entries)
	}
	ids := w.state.ids()
	w.mu.Unlock()
	log.Error("journal: a snapshot is over the limit a segment may have, and is not written: the journal keeps only the job and stage ids taken, " +
		"so if this attempt fails the next starts the work so far over")
	data, err = Encode(app, Snapshot, ids)
	return data, Snapshot, true, err
}

// failed puts back what waited for a segment not written: the next
// segment, a snapshot, holds what it would have. Run tries again after
// a while, whether or not more is appended.
func (w *Writer) failed(waiting []chan struct{}, err error) {
	w.mu.Lock()
	w.whole = true
	w.waiting = append(waiting, w.waiting...)
	w.mu.Unlock()
	w.cfg.Log.WithError(err).Warn("journal: a segment was not written; the next is a snapshot")
	w.poke()
}

// written notes segment seq written, of n bytes.
func (w *Writer) written(seq int, kind Kind, n int) {
	w.mu.Lock()
	w.next = seq + 1
	if kind == Delta {
		w.deltas++
		w.journalBytes += n
	} else {
		w.whole, w.deltas, w.journalBytes = false, 0, n
	}
	total := w.journalBytes
	w.mu.Unlock()
	w.cfg.Meter.JournalWritten(n, total)
}

func closeAll(chs []chan struct{}) {
	for _, ch := range chs {
		close(ch)
	}
}

// removeBefore removes the segments snapshot seq made needless: this
// attempt's before it, and the earlier attempts' (unless it keeps them),
// an older attempt's written since included. A newer attempt's it
// leaves: that one's chain is in force, not this one's.
func (w *Writer) removeBefore(ctx context.Context, seq int) {
	names, err := w.cfg.Store.List(ctx)
	if err != nil {
		return
	}
	for _, name := range names {
		s, kind := parseName(name)
		earlier := kind == legacyName || kind == segmentOf && s.attempt < w.cfg.Attempt
		mine := kind == segmentOf && s.attempt == w.cfg.Attempt && s.seq < seq
		if kind == segmentOf && s.attempt > w.cfg.Attempt {
			w.cfg.Log.WithField("segment", name).Warn("journal: a later attempt of the AM writes the journal: this attempt's segments are not read")
		}
		if mine || earlier && !w.cfg.KeepEarlier {
			if err := w.cfg.Store.Remove(ctx, name); err != nil {
				w.cfg.Log.WithError(err).WithField("segment", name).Warn("journal: an old segment was not removed")
			}
		}
	}
}
