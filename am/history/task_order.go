package history

import (
	"cmp"
	"math"
	"slices"
)

// TaskQuery asks for a page of a stage's listed tasks.
type TaskQuery struct {
	// State keeps only the tasks in it ("": all).
	State string
	// Sort orders them by one of TaskSorts (""; SortIndex), Desc the
	// other way round. Ties go by index.
	Sort string
	Desc bool
	// Offset and Length cut the page out of them.
	Offset, Length int
}

// The orders a stage's tasks are listed in, by their latest attempts.
const (
	SortIndex    = "index"
	SortDuration = "duration" // running ones' so far
	SortStart    = "start"
	SortAttempts = "attempts"
	SortExecutor = "executor" // by its id
)

// TaskSorts are the orders TaskQuery.Sort names.
var TaskSorts = []string{SortIndex, SortDuration, SortStart, SortAttempts, SortExecutor}

// keyed is a task and what it sorts by.
type keyed struct {
	key   int64
	index int32
}

// ordered is the listed tasks in q.State, in q's order. A task with no
// value to sort by (not started: no duration, start or executor) comes
// last either way. The order is computed afresh for each page: a stage
// of 100,000 tasks takes a sort of 100,000 pairs (docs/ui.md, "What it
// costs").
func (s *Store) ordered(st *stage, q TaskQuery, nowMs int64) []int32 {
	none := int64(math.MaxInt64)
	if q.Desc {
		none = math.MinInt64
	}
	key := s.sortKey(q.Sort, nowMs)
	n := st.listed(s.lim)
	keys := make([]keyed, 0, n)
	for i := range n {
		t := task{}
		if i < len(st.tasks) {
			t = st.tasks[i]
		}
		if q.State != "" && taskStates[t.state] != q.State {
			continue
		}
		k, ok := key(&t, i)
		if !ok {
			k = none
		}
		keys = append(keys, keyed{k, int32(i)})
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if a.key != b.key {
			if q.Desc {
				return cmp.Compare(b.key, a.key)
			}
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.index, b.index)
	})
	out := make([]int32, len(keys))
	for i, k := range keys {
		out[i] = k.index
	}
	return out
}

// sortKey is how a task's key for order is read: false for none.
func (s *Store) sortKey(order string, nowMs int64) func(t *task, index int) (int64, bool) {
	switch order {
	case SortDuration:
		return func(t *task, _ int) (int64, bool) {
			switch t.state {
			case tNone:
				return 0, false
			case tRunning:
				return nowMs - t.start, true
			}
			return t.end - t.start, true
		}
	case SortStart:
		return func(t *task, _ int) (int64, bool) { return t.start, t.state != tNone }
	case SortAttempts:
		return func(t *task, _ int) (int64, bool) {
			if t.state == tNone {
				return 0, true
			}
			return int64(t.attempt) + 1, true
		}
	case SortExecutor:
		rank := s.executorRanks()
		return func(t *task, _ int) (int64, bool) {
			if t.exec == 0 {
				return 0, false
			}
			return int64(rank[t.exec-1]), true
		}
	}
	return func(_ *task, index int) (int64, bool) { return int64(index), true }
}

// executorRanks are the executors' places in the order of their ids,
// by their places in execOrder.
func (s *Store) executorRanks() []int {
	byID := slices.Clone(s.execOrder)
	slices.SortStableFunc(byID, func(a, b *executor) int { return cmp.Compare(a.ID, b.ID) })
	rank := make([]int, len(byID))
	for i, x := range byID {
		rank[x.slot] = i
	}
	return rank
}
