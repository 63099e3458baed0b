package journal

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Store keeps a journal's segments: the staging directory's journal/ on
// HDFS, or a local directory (deploy/staging).
type Store interface {
	// List names the segments there, in any order; a missing journal
	// is none.
	List(ctx context.Context) ([]string, error)
	// Read reads a segment, at most MaxSegmentBytes+1 of it.
	Read(ctx context.Context, name string) ([]byte, error)
	// Write stores a new segment whole: once it returns nil a reader
	// sees all of it, and before, none.
	Write(ctx context.Context, name string, data []byte) error
	Remove(ctx context.Context, name string) error
}

// segmentName is segment n's name: they sort as they were written.
func segmentName(n int) string { return fmt.Sprintf("%010d.seg", n) }

// segmentNumber reads a segment's number from its name; ok is false for
// anything else in the directory (a half-written file's temporary name).
func segmentNumber(name string) (int, bool) {
	num, ok := strings.CutSuffix(name, ".seg")
	if !ok || len(num) != 10 {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil && n >= 0
}

// Load reads app's journal from s: the state it says, and the number the
// next segment takes. An empty journal is a new State. Any segment
// that cannot be read or applied refuses the whole journal: the state
// is nil, and next, when the journal could be listed, is still the
// number a new writer starts from (its first snapshot then replaces
// the refused journal).
func Load(ctx context.Context, s Store, app string) (*State, int, error) {
	names, err := s.List(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the journal: %w", err)
	}
	var nums []int
	for _, name := range names {
		if n, ok := segmentNumber(name); ok {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	st := NewState(app)
	if len(nums) == 0 {
		return st, 0, nil
	}
	next := nums[len(nums)-1] + 1
	// Start at the last snapshot: what came before it is in it.
	start := -1
	segments := make([][]Entry, len(nums))
	for i := len(nums) - 1; i >= 0 && start < 0; i-- {
		name := segmentName(nums[i])
		data, err := s.Read(ctx, name)
		if err != nil {
			return nil, next, fmt.Errorf("reading journal segment %s: %w", name, err)
		}
		kind, entries, err := Decode(name, data, app)
		if err != nil {
			return nil, next, err
		}
		segments[i] = entries
		if kind == Snapshot {
			start = i
		}
	}
	if start < 0 {
		return nil, next, fmt.Errorf("journal segment %s: the journal has no snapshot to start from", segmentName(nums[0]))
	}
	for i := start; i < len(nums); i++ {
		for k, e := range segments[i] {
			if err := st.Apply(e); err != nil {
				return nil, next, fmt.Errorf("journal segment %s line %d: %w", segmentName(nums[i]), k+2, err)
			}
		}
	}
	return st, next, nil
}
