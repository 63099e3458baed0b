package journal

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A set of task indices reads back as written, whichever form it took:
// ranges for runs, a bitmap for scattered indices.
func TestTasksReadBackAsWritten(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		density float64
		form    string // the shorter
	}{{0.001, "ranges"}, {0.1, "bitmap"}, {0.5, "bitmap"}, {0.9, "bitmap"}, {0.999, "ranges"}} {
		density := tc.density
		var want []int
		var set Tasks
		for i := 70; i < 70+20_000; i++ {
			if r.Float64() < density {
				want = append(want, i)
				set.add(i)
			}
		}
		data, err := json.Marshal(set)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"`+tc.form+`"`) {
			t.Errorf("density %v: written as %.40s...; want %s", density, data, tc.form)
		}
		var back Tasks
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("density %v: %v", density, err)
		}
		if got := slices.Collect(back.All()); !slices.Equal(got, want) || back.Len() != len(want) {
			t.Errorf("density %v: read back %d tasks, want %d", density, back.Len(), len(want))
		}
	}
}

// Tasks added from the highest index down make the same set as from the
// lowest up.
func TestTasksInAnyOrder(t *testing.T) {
	var up, down Tasks
	for i := range 1000 {
		up.add(3 * i)
		down.add(3 * (999 - i))
	}
	a, _ := json.Marshal(up)
	b, _ := json.Marshal(down)
	if string(a) != string(b) || !down.Has(2997) || down.Has(2998) || down.Len() != 1000 {
		t.Errorf("up %s, down %s", a, b)
	}
}

// The journal of a live job with a million succeeded tasks is under a
// megabyte: a few bytes when they succeeded in order, and at most a
// byte per 6 tasks of the stage whatever the order (its bitmap).
func TestAMillionSucceededTasksJournalUnderAMegabyte(t *testing.T) {
	const tasks = 1_000_000
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name  string
		index func(i int) int // the i-th success's task index
		tasks int             // the stage's
		most  int             // bytes
	}{
		{"in order", func(i int) int { return i }, tasks, 1 << 10},
		// 1,000 slots finishing in any order within each wave, and one
		// task in 100 failing to succeed only at the stage's end: 10,000
		// holes still open.
		{"waves of 1,000 with 1% retried", shuffledWaves(r, tasks+tasks/99), tasks + tasks/99, 200 << 10},
		// Adversarial: every other task.
		{"every other task", func(i int) int { return 2 * i }, 2 * tasks, 2*tasks/6 + 1<<10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newMemStore()
			w := attemptWriter(store, 1, NewState(app))
			w.Append(Entry{Job: &Job{ID: 0, Spec: []byte(`{"name":"j"}`), StageProfiles: []int{0}}})
			batch := make([]Entry, 0, 10_000)
			for i := range tasks {
				batch = append(batch, TaskDone(0, 0, tc.index(i)))
				if len(batch) == cap(batch) {
					w.Append(batch...)
					batch = batch[:0]
				}
			}
			if err := w.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := load(t, store)
			if n := st.Jobs[0].Done[0].Len(); n != tasks {
				t.Fatalf("%d tasks read back, want %d", n, tasks)
			}
			if n := store.bytes(); n > tc.most || n >= 1<<20 {
				t.Errorf("%d bytes for %d succeeded tasks of %d; want at most %d", n, tasks, tc.tasks, tc.most)
			}
			t.Logf("%d bytes", store.bytes())
		})
	}
}

// shuffledWaves is the order tasks of a stage of n succeed on 1,000
// slots: wave by wave of 1,000 in index order, in any order within a
// wave, one in 100 not at all (it failed, to run again later).
func shuffledWaves(r *rand.Rand, n int) func(int) int {
	var order []int
	for from := 0; from < n; from += 1000 {
		wave := r.Perm(min(1000, n-from))
		for _, k := range wave {
			if (from+k)%100 != 99 {
				order = append(order, from+k)
			}
		}
	}
	return func(i int) int { return order[i] }
}
