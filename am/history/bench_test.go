package history

import (
	"testing"

	"github.com/sirupsen/logrus"
)

// What the history costs the loop per task: recording its attempt's
// start and end in the Store and appending both to the event log, in
// batches of 64 events as a busy loop's turns have them.
func BenchmarkRecordATask(b *testing.B) {
	s := NewStore(Limits{})
	w := NewWriter(newMemStore(), nil, logrus.New())
	const tasks = 1 << 20
	s.Record(Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "container_1_0001_01_000002"}},
		Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Tasks: tasks}}}})
	batch := make([]Event, 0, 64)
	gpus := []string{"0"}
	i := 0
	for b.Loop() {
		idx := i % tasks
		batch = append(batch,
			Event{Time: at(1), TaskStarted: &TaskStarted{Stage: 0, Index: idx, Attempt: i / tasks, Executor: "container_1_0001_01_000002", GPUs: gpus}},
			Event{Time: at(2), TaskEnded: &TaskEnded{Stage: 0, Index: idx, Attempt: i / tasks, Executor: "container_1_0001_01_000002", State: TaskSucceeded}})
		if len(batch) == cap(batch) {
			s.Record(batch...)
			w.Append(batch...)
			batch = batch[:0]
			if len(w.pending) > 1<<20 {
				w.pending = w.pending[:0]
			}
		}
		i++
	}
}
