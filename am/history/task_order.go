package history

import (
	"cmp"
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

// A task's place in an order is its key and its index packed in a
// uint64, the key above the index: ties go by index, and values are
// distinct. Keys are clamped to keyBits (a duration of 17 years in
// milliseconds), indices take indexBits (MaxRetainedTasks).
const (
	indexBits = 24
	keyBits   = 64 - indexBits
	noKey     = 1<<keyBits - 1 // last, either way
	// MaxRetainedTasks is the most Limits.RetainedTasks may be.
	MaxRetainedTasks = 1 << indexBits
)

// orderedPage is the listed tasks in q.State, in q's order: their
// number, and the indices of those on q's page. A task with no value to
// sort by (not started: no duration, start or executor) comes last
// either way. Each page selects its places afresh (select.go): a stage
// of 100,000 tasks costs a pass over them, not a sort of them
// (docs/ui.md, "What it costs").
func (s *Store) orderedPage(st *stage, q TaskQuery, nowMs int64) (page []int, total int) {
	key := s.sortKey(st, q.Sort, nowMs)
	n := st.listed(s.lim)
	packed := make([]uint64, 0, n)
	for i := range n {
		t := task{}
		if i < len(st.tasks) {
			t = st.tasks[i]
		}
		if q.State != "" && taskStates[t.state] != q.State {
			continue
		}
		k, ok := key(&t, i)
		switch {
		case !ok:
			k = noKey
		case q.Desc:
			k = noKey - 1 - min(max(k, 0), noKey-1)
		default:
			k = min(max(k, 0), noKey-1)
		}
		packed = append(packed, uint64(k)<<indexBits|uint64(i))
	}
	end := min(q.Offset+q.Length, len(packed))
	sortRange(packed, q.Offset, end)
	for _, p := range packed[min(q.Offset, end):end] {
		page = append(page, int(p&(1<<indexBits-1)))
	}
	return page, len(packed)
}

// sortKey is how a task's key for order is read: false for none.
func (s *Store) sortKey(st *stage, order string, nowMs int64) func(t *task, index int) (int64, bool) {
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
	case SortStart: // about the stage's first start, to fit keyBits
		first := st.started.UnixMilli() - 1<<(keyBits-2)
		return func(t *task, _ int) (int64, bool) { return t.start - first, t.state != tNone }
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
