package history

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// sortable is a stage of 6 tasks on executors b and a: 0 took 3s, 1 5s,
// 2 1s (on a, after two attempts), 3 runs since 4s, 4 took 5s, 5 never
// started.
func sortable(t *testing.T) *Store {
	s := NewStore(Limits{})
	record(t, s, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "b"}}, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "a"}},
		Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Tasks: 6}}}})
	run := func(index, attempt int, exec string, start, end float64, state string) {
		record(t, s, Event{Time: at(start), TaskStarted: &TaskStarted{Stage: 0, Index: index, Attempt: attempt, Executor: exec}})
		if state != "" {
			record(t, s, Event{Time: at(end), TaskEnded: &TaskEnded{Stage: 0, Index: index, Attempt: attempt, Executor: exec, State: state}})
		}
	}
	run(0, 0, "b", 1, 4, TaskSucceeded)
	run(1, 0, "b", 2, 7, TaskSucceeded)
	run(2, 0, "b", 1, 2, TaskFailed)
	run(2, 1, "a", 3, 4, TaskSucceeded)
	run(3, 0, "a", 4, 0, "")
	run(4, 0, "b", 0.5, 5.5, TaskSucceeded)
	return s
}

func order(t *testing.T, s *Store, q TaskQuery) string {
	t.Helper()
	if q.Length == 0 {
		q.Length = 10
	}
	p, ok := s.Tasks(at(6), 0, q)
	if !ok {
		t.Fatal("no stage 0")
	}
	var out []string
	for _, tk := range p.Tasks {
		out = append(out, fmt.Sprint(tk.Index))
	}
	return fmt.Sprintf("%s of %d", strings.Join(out, " "), p.Total)
}

// Tasks sort by their latest attempts, ties by index, those with no
// value last either way; the state filter and the page apply to the
// order.
func TestTasksSortOnTheServer(t *testing.T) {
	s := sortable(t)
	for _, tc := range []struct {
		q    TaskQuery
		want string
	}{
		{TaskQuery{}, "0 1 2 3 4 5 of 6"},
		{TaskQuery{Sort: SortIndex, Desc: true}, "5 4 3 2 1 0 of 6"},
		{TaskQuery{Sort: SortDuration}, "2 3 0 1 4 5 of 6"},
		{TaskQuery{Sort: SortDuration, Desc: true}, "1 4 0 3 2 5 of 6"},
		{TaskQuery{Sort: SortStart}, "4 0 1 2 3 5 of 6"},
		{TaskQuery{Sort: SortAttempts, Desc: true}, "2 0 1 3 4 5 of 6"},
		{TaskQuery{Sort: SortExecutor}, "2 3 0 1 4 5 of 6"},
		{TaskQuery{Sort: SortExecutor, Desc: true}, "0 1 4 2 3 5 of 6"},
		{TaskQuery{Sort: SortDuration, Desc: true, State: TaskSucceeded}, "1 4 0 2 of 4"},
		{TaskQuery{Sort: SortDuration, Desc: true, Offset: 1, Length: 1}, "4 of 6"},
		{TaskQuery{Sort: SortDuration, Desc: true, Offset: 9}, " of 6"},
	} {
		if got := order(t, s, tc.q); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.q, got, tc.want)
		}
	}
}

// The summary is of the succeeded tasks' durations: min, quartiles,
// max, each a value of them (the nearest place).
func TestAStageSummarizesItsDurations(t *testing.T) {
	s := sortable(t)
	q, ok := s.Durations(0)
	if !ok || q == nil || *q != (Quantiles{N: 4, Min: 1, P25: 3, Median: 5, P75: 5, Max: 5}) {
		t.Errorf("durations: %+v, want 4 of 1s, 3s, 5s, 5s", q)
	}
	for _, tc := range []struct {
		values []float64
		want   Quantiles
	}{
		{[]float64{7}, Quantiles{N: 1, Min: 7, P25: 7, Median: 7, P75: 7, Max: 7}},
		{[]float64{5, 1, 4, 2, 3}, Quantiles{N: 5, Min: 1, P25: 2, Median: 3, P75: 4, Max: 5}},
		{[]float64{9, 1, 8, 2, 7, 3, 6, 4, 5}, Quantiles{N: 9, Min: 1, P25: 3, Median: 5, P75: 7, Max: 9}},
	} {
		if got := QuantilesOf(tc.values); *got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.values, *got, tc.want)
		}
	}
	// A stage of many: the quantiles selected are those of a sort.
	many := NewStore(Limits{})
	record(t, many, Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Tasks: 5000}}}})
	var values []float64
	for i := range 5000 {
		ms := i * 7919 % 1237
		values = append(values, float64(ms)/1000)
		record(t, many, Event{Time: at(1), TaskStarted: &TaskStarted{Stage: 0, Index: i}},
			Event{Time: at(1).Add(time.Duration(ms) * time.Millisecond), TaskEnded: &TaskEnded{Stage: 0, Index: i, State: TaskSucceeded}})
	}
	if got, _ := many.Durations(0); *got != *QuantilesOf(values) {
		t.Errorf("5000 durations: %+v, want %+v", *got, *QuantilesOf(values))
	}
	if QuantilesOf(nil) != nil {
		t.Error("quantiles of nothing")
	}
	if _, ok := s.Durations(9); ok {
		t.Error("durations of a stage not known")
	}
}

// A range selected is what a sort puts there, for any range of values
// in any order, sorted ones and ones turned round included.
func TestSortRangeIsASortsRange(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		n := rnd.IntN(3000)
		x := make([]uint64, n)
		for i := range x {
			switch round % 3 {
			case 0:
				x[i] = rnd.Uint64()
			case 1:
				x[i] = uint64(i)
			default:
				x[i] = uint64(n - i)
			}
		}
		sorted := slices.Sorted(slices.Values(x))
		lo := rnd.IntN(n + 2)
		hi := lo + rnd.IntN(n+2)
		sortRange(x, lo, hi)
		lo, hi = min(lo, n), min(hi, n)
		if !slices.Equal(x[lo:hi], sorted[lo:hi]) {
			t.Fatalf("round %d: [%d, %d) of %d: %v, want %v", round, lo, hi, n, x[lo:hi], sorted[lo:hi])
		}
	}
}
