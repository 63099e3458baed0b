package history

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// The event log is an application's events as JSON lines (Event, one a
// line) in segments named events-000001.jsonl, events-000002.jsonl, ...
// in its directory; they sort as they were written. The writer rewrites
// the newest segment whole as it grows, and starts the next once it
// holds RollBytes (log_writer.go), so a reader sees each segment as some
// whole prefix of what it will hold.

// SegmentStore keeps one application's segments. A Write replaces a
// segment whole: a reader sees the old or the new, never a mix
// (deploy/staging's JournalStore, on HDFS or a local directory).
type SegmentStore interface {
	List(ctx context.Context) ([]string, error)
	Read(ctx context.Context, name string) ([]byte, error)
	Write(ctx context.Context, name string, data []byte) error
	Remove(ctx context.Context, name string) error
}

// MaxLineBytes bounds one event's line: the longest real one, a job of
// many stages, is far shorter.
const MaxLineBytes = 1 << 20

var segmentRE = regexp.MustCompile(`^events-(\d{6,})\.jsonl$`)

func segmentName(n int) string { return fmt.Sprintf("events-%06d.jsonl", n) }

// segmentLister lists a log's files: a SegmentStore, or a PartStore.
type segmentLister interface {
	List(ctx context.Context) ([]string, error)
}

// segments lists the store's segment numbers in order; other names (a
// writer's temporary files, a driver's running mark) are not the log's.
func segments(ctx context.Context, store segmentLister) ([]int, error) {
	names, err := store.List(ctx)
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, name := range names {
		if m := segmentRE.FindStringSubmatch(name); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return nil, fmt.Errorf("event log segment %s: %w", name, err)
			}
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	return nums, nil
}

// Load builds a Store from an event log. A line that does not decode, or
// an event the Store refuses, fails the load naming segment and line: a
// history that is not the application's is worse than none.
func Load(ctx context.Context, store SegmentStore, lim Limits) (*Store, error) {
	s := NewStore(lim)
	n, err := s.load(ctx, store)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("the event log has no segments")
	}
	return s, nil
}

// load applies an event log's segments to s and says the number of the
// last: the next one written is after it. A log that holds a whole
// snapshot is read from the last such (the writer removes what came
// before once it has written one, but may have died first); a snapshot
// cut short by its writer's death is passed over for the one before.
func (s *Store) load(ctx context.Context, store SegmentStore) (int, error) {
	nums, err := segments(ctx, store)
	if err != nil {
		return 0, err
	}
	segs := make([][]LineEvent, len(nums))
	starts := []int{0}
	for i, n := range nums {
		name := segmentName(n)
		data, err := store.Read(ctx, name)
		if err != nil {
			return 0, fmt.Errorf("event log segment %s: %w", name, err)
		}
		if segs[i], err = Decode(data); err != nil {
			return 0, fmt.Errorf("event log segment %s: %w", name, err)
		}
		if i > 0 && len(segs[i]) > 0 && segs[i][0].Snapshot != nil {
			starts = append(starts, i)
		}
	}
	end := len(nums)
	for k := len(starts) - 1; ; k-- {
		// From an earlier start, up to the snapshot that failed.
		err := s.replay(nums[starts[k]:end], segs[starts[k]:end])
		end = starts[k]
		if err == nil && s.restoring > 0 {
			err = fmt.Errorf("event log segment %s: a snapshot cut short, %d events missing", segmentName(nums[starts[k]]), s.restoring)
		}
		if err == nil || k == 0 {
			if len(nums) == 0 {
				return 0, err
			}
			return nums[len(nums)-1], err
		}
	}
}

// replay records segments' events into s, emptied first.
func (s *Store) replay(nums []int, segs [][]LineEvent) error {
	s.mu.Lock()
	s.reset()
	s.mu.Unlock()
	for i, events := range segs {
		for k := range events {
			if err := s.Record(events[k].Event); err != nil {
				return fmt.Errorf("event log segment %s line %d: %w", segmentName(nums[i]), events[k].Line, err)
			}
		}
	}
	return nil
}

// LineEvent is an event and the line it was read from.
type LineEvent struct {
	Event
	Line int
}

// Decode reads a segment's events. A line that is not one JSON event
// setting exactly one kind, with a time, is an error naming it.
func Decode(data []byte) ([]LineEvent, error) {
	var out []LineEvent
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Event
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", line)
		}
		if n := e.kinds(); n != 1 {
			return nil, fmt.Errorf("line %d: an event sets %d kinds, not one", line, n)
		}
		if e.Time.IsZero() {
			return nil, fmt.Errorf("line %d: an event with no time", line)
		}
		out = append(out, LineEvent{Event: e, Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("line %d: cut short (no newline at the end)", line)
	}
	return out, nil
}
