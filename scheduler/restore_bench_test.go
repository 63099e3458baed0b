package scheduler

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkRestoreJournal restores a stage of 100,000 tasks as a journal
// lists them after the placement benchmark's cluster ran it: in the order
// they ended, each up to 32,000 places (the tasks running at once) from
// its index. One op is one task restored.
func BenchmarkRestoreJournal(b *testing.B) {
	const window = 32_000
	rng := rand.New(rand.NewPCG(1, 2))
	ended := make([]int, benchTasks)
	for i := range ended {
		ended[i] = i + rng.IntN(window)
	}
	order := make([]int, benchTasks)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(ended[x], ended[y]) })
	var s *Scheduler
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%benchTasks == 0 {
			b.StopTimer()
			s = newHarness(b, Config{}).s
			if _, err := s.SubmitJob(t0, oneStage("j", benchTasks, 1, GPURequest{})); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := s.RestoreSucceeded(t0, TaskID{0, order[i%benchTasks]}); err != nil {
			b.Fatal(err)
		}
	}
}
