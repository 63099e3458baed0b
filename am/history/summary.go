package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"
)

// A list of applications (`spindle history` with no id) and the cleaner
// (retention.go) need of each log only who the application is and how it
// ended. A log is up to CompactBytes and a snapshot: rather than replay
// it, Summarize reads the head of its first segment, where the
// application is named (its first event, or a snapshot's first after
// the mark), and the tail of its last, where its end is (the last event,
// or a snapshot's last but its timeline).

// PartStore reads part of an application's segments.
type PartStore interface {
	List(ctx context.Context) ([]string, error)
	// ReadHead reads the first n bytes of a segment (all of it when it
	// is shorter); ReadTail its last n. whole says nothing was left out.
	ReadHead(ctx context.Context, name string, n int) (data []byte, whole bool, err error)
	ReadTail(ctx context.Context, name string, n int) (data []byte, whole bool, err error)
}

// AppSummary is an application as a list shows it.
type AppSummary struct {
	AppStarted
	Started time.Time
	// Ended is when its end was logged; zero while it runs, or when its
	// driver died before it could say so.
	Ended time.Time
	// State is JobRunning (no end logged), JobSucceeded or JobFailed.
	State       string
	Diagnostics string
}

// partBytes is how much of a segment is read first: an application's
// start and end lines are far shorter; a snapshot's timeline, which may
// follow its end, is read by reading more.
const partBytes = 64 << 10

// Summarize reads an application's summary from the least of its log.
func Summarize(ctx context.Context, store PartStore) (AppSummary, error) {
	nums, err := segments(ctx, store)
	if err != nil {
		return AppSummary{}, err
	}
	if len(nums) == 0 {
		return AppSummary{}, errors.New("the event log has no segments")
	}
	first, last := segmentName(nums[0]), segmentName(nums[len(nums)-1])
	app, err := findEvent(ctx, store, first, false, func(events []LineEvent) *Event {
		for i := range events {
			if events[i].App != nil {
				return &events[i].Event
			}
		}
		return nil
	})
	if err != nil || app == nil {
		return AppSummary{}, errors.Join(fmt.Errorf("event log segment %s: no application started at its head", first), err)
	}
	sum := AppSummary{AppStarted: *app.App, Started: app.Time, State: JobRunning}
	end, err := findEvent(ctx, store, last, true, lastButTimeline)
	if err != nil {
		return AppSummary{}, fmt.Errorf("event log segment %s: %w", last, err)
	}
	if end != nil && end.AppEnded != nil {
		sum.Ended, sum.Diagnostics, sum.State = end.Time, end.AppEnded.Diagnostics, JobFailed
		if end.AppEnded.Succeeded {
			sum.State = JobSucceeded
		}
	}
	return sum, nil
}

// lastButTimeline is the last event but a snapshot's timeline, which
// comes after the application's end in a snapshot; nil when the events
// are timelines alone.
func lastButTimeline(events []LineEvent) *Event {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Timeline == nil {
			return &events[i].Event
		}
	}
	return nil
}

// findEvent reads part of a segment, its head or its tail, more each
// time until pick finds its event or the segment was read whole.
func findEvent(ctx context.Context, store PartStore, name string, tail bool, pick func([]LineEvent) *Event) (*Event, error) {
	read := store.ReadHead
	if tail {
		read = store.ReadTail
	}
	for n := partBytes; ; n *= 4 {
		data, whole, err := read(ctx, name, n)
		if err != nil {
			return nil, err
		}
		events, err := Decode(wholeLines(data, whole, tail))
		if err != nil {
			return nil, err
		}
		if e := pick(events); e != nil || whole {
			return e, nil
		}
	}
}

// wholeLines cuts part of a segment to the lines in it whole. A head
// starts at a line's start and may end in a line cut off; a tail ends
// at a line's end (a segment is whole lines) and may start in a line
// begun before it. A segment read whole is whole lines already, or
// Decode says where it is not.
func wholeLines(data []byte, whole, tail bool) []byte {
	switch {
	case whole:
		return data
	case tail:
		return data[bytes.IndexByte(data, '\n')+1:]
	default:
		return data[:bytes.LastIndexByte(data, '\n')+1]
	}
}
