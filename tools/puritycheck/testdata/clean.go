package core

import (
	"fmt"
	"time"
)

// A core may hold times and durations, and compute with them.
type wait struct {
	since time.Time
	for_  time.Duration
}

func (w wait) due(now time.Time) bool { return now.Sub(w.since) >= w.for_ }

func show(d time.Duration) string { return fmt.Sprint(d.Round(time.Millisecond)) }
