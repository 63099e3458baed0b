package history

import (
	"cmp"
	"slices"
	"time"
)

// Spark's history server cleans its event log directory
// (spark.history.fs.cleaner.*); Spindle runs no server, so whoever opens
// the directory cleans it: a driver as it starts, `spindle history` as it
// lists (docs/ui.md, "What is kept"). Retention decides what goes; it
// does no I/O.

// Retention is how many ended applications' event logs a directory
// keeps, and for how long: spindle.eventLog.maxApps and maxAge, Spark's
// spark.history.fs.cleaner.maxNum and maxAge.
type Retention struct {
	// MaxApps is how many ended applications' logs are kept, the most
	// recently ended (0: no limit).
	MaxApps int
	// MaxAge is how long after its end a log is kept (0: no limit).
	MaxAge time.Duration
}

// LoggedApp is one application's log as the cleaner sees it.
type LoggedApp struct {
	ID string
	// Ended is when the application ended: its logged end, or for a
	// log without one whose driver is known to be gone, when the log was
	// last written. Zero says it may be running: its log is neither
	// counted nor removed.
	Ended time.Time
}

// Expired names the logs to remove, the oldest first: every ended
// application's that ended more than MaxAge before now (one that ended
// exactly MaxAge ago is kept), and those of the ended applications
// beyond the MaxApps most recently ended.
func (r Retention) Expired(apps []LoggedApp, now time.Time) []string {
	var ended []LoggedApp
	for _, a := range apps {
		if !a.Ended.IsZero() {
			ended = append(ended, a)
		}
	}
	// The newest first; ids break ties so that every cleaner agrees.
	slices.SortFunc(ended, func(a, b LoggedApp) int {
		return cmp.Or(b.Ended.Compare(a.Ended), cmp.Compare(b.ID, a.ID))
	})
	var out []string
	for i := len(ended) - 1; i >= 0; i-- {
		tooMany := r.MaxApps > 0 && i >= r.MaxApps
		tooOld := r.MaxAge > 0 && now.Sub(ended[i].Ended) > r.MaxAge
		if tooMany || tooOld {
			out = append(out, ended[i].ID)
		}
	}
	return out
}
