package metrics

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// BenchmarkObserveTask is what one task costs the metrics on the loop:
// its attempt's start and end, in batches of a turn's size as the loop
// hands them over; the history's Store, which the loop feeds the same
// events, beside it for scale.
func BenchmarkObserveTask(b *testing.B) {
	b.Run("metrics", func(b *testing.B) { benchObserve(b, New().Observe) })
	b.Run("store", func(b *testing.B) {
		s := history.NewStore(history.Limits{})
		benchObserve(b, func(e []history.Event) { s.Record(e...) })
	})
}

func benchObserve(b *testing.B, observe func([]history.Event)) {
	const batch = 1000
	observe([]history.Event{{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 1, Pool: "p",
		Stages: []history.StageInfo{{ID: 1, Tasks: max(b.N, batch), GPUs: 0.5}}}},
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "e", GPUs: []string{"0"}}}})
	// The events are made once and changed in place: what is measured is
	// observing them.
	events := make([]history.Event, 2*batch)
	for j := 0; j < batch; j++ {
		events[2*j].TaskStarted = &history.TaskStarted{Stage: 1, Executor: "e"}
		events[2*j+1].TaskEnded = &history.TaskEnded{Stage: 1, Executor: "e", State: history.TaskSucceeded}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		n := min(batch, b.N-i)
		for j := range n {
			now := t0.Add(time.Duration(i+j) * time.Millisecond)
			events[2*j].Time, events[2*j].TaskStarted.Index = now, i+j
			events[2*j+1].Time, events[2*j+1].TaskEnded.Index = now, i+j
		}
		observe(events[:2*n])
	}
}
