package handover

import (
	"errors"
	"time"

	"github.com/spindle-yarn/spindle/am/journal"
)

// ReadWait bounds how long an attempt tries again to read a journal
// whose store fails (a NameNode restarting, failing over, in safe mode)
// before it goes on without the earlier attempts' work: half the
// executors' default rejoin timeout (60s), so that when the store
// answers in time the executors YARN kept are still there to adopt.
const ReadWait = 30 * time.Second

// The first try again after a failed read waits firstRetry; each next
// twice as long, up to maxRetry.
const (
	firstRetry = 250 * time.Millisecond
	maxRetry   = 4 * time.Second
)

// Reading is an attempt reading the earlier attempts' journal, trying a
// store that fails again, with backoff, for up to ReadWait. Nothing is
// written before it is done.
type Reading struct {
	deadline time.Time
	delay    time.Duration
}

// StartReading starts reading at now.
func StartReading(now time.Time) *Reading {
	return &Reading{deadline: now.Add(ReadWait), delay: firstRetry}
}

// Read is what one try at journal.Load came to.
type Read struct {
	// Done: the attempt goes on from State. Otherwise it tries again
	// after Again.
	Done  bool
	State *journal.State
	// Known says whether the earlier attempts' segments are known (read,
	// or refused as corrupt): a writer may then remove them. A journal
	// given up on leaves them, and this attempt's chain takes precedence.
	Known bool
	// Refused: the journal was read and refused; GaveUp: it could not be
	// read for ReadWait. Either way the work starts over.
	Refused, GaveUp bool
	Again           time.Duration
}

// Tried judges a try at loading app's journal, at now, that gave st or
// err: a state to go on from, or a wait before trying again.
func (r *Reading) Tried(now time.Time, app string, st *journal.State, err error) Read {
	switch {
	case err == nil:
		return Read{Done: true, State: st, Known: true}
	case !errors.Is(err, journal.ErrUnreadable):
		return Read{Done: true, State: journal.NewState(app), Known: true, Refused: true}
	}
	left := r.deadline.Sub(now)
	if left <= 0 {
		return Read{Done: true, State: journal.NewState(app), GaveUp: true}
	}
	wait := min(r.delay, left)
	r.delay = min(2*r.delay, maxRetry)
	return Read{Again: wait}
}
