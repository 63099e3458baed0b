package scheduler

import (
	"math/rand/v2"
	"testing"
)

// A stage of more tasks than a few chunks, its attempts ending in every
// way in a random order: its chunks stay consistent with its tasks after
// every step (checkInternal), a chunk is dropped once all its tasks
// succeeded, and the job succeeds with every chunk dropped. Cancelled
// half-way, only the chunks with an attempt still running are kept until
// they report, when the job is forgotten.
func TestChunksFollowTheTasks(t *testing.T) {
	const tasks = 2*chunkTasks + 300 // the last chunk a short one
	for _, cancel := range []bool{false, true} {
		h := newHarness(t, Config{MaxTaskFailures: 20, RetryBackoff: 1, RetryMaxBackoff: 1}, Profile{ID: 0, Cores: 200})
		h.exec("e1", "h1", 200)
		id := h.submit(JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: tasks, Request: TaskRequest{CPUs: 1}}}})
		st := h.s.jobs[id].stages[0]
		rng := rand.New(rand.NewPCG(1, 2))
		var running []Launch
		for step := 0; ; step++ {
			h.advance(2)
			rd := h.ready()
			running = append(running, rd.Launches...)
			for _, k := range rd.Kills {
				h.finish(k.Attempt, TaskResult{Outcome: Killed})
				running = remove(running, k.Attempt)
			}
			if msg := checkInternal(h.s); msg != "" {
				t.Fatalf("cancel %v, step %d: %s", cancel, step, msg)
			}
			if _, active := h.s.jobs[id]; !active {
				break
			}
			if cancel && st.succeeded > tasks/2 && !st.job.ended {
				kept := 0
				if err := h.s.CancelJob(id, "half"); err != nil {
					t.Fatal(err)
				}
				for _, c := range st.chunks {
					if c.tasks != nil {
						kept++
					}
				}
				// 200 attempts run, launched in index order but for
				// retries: at most two chunks hold them, nearly always.
				if kept == 0 || kept > 3 {
					t.Fatalf("cancelled with %d running: %d chunks kept", st.running, kept)
				}
				continue
			}
			// End a random half of what runs, in a random order.
			rng.Shuffle(len(running), func(i, k int) { running[i], running[k] = running[k], running[i] })
			n := (len(running) + 1) / 2
			for _, l := range running[:n] {
				r := TaskResult{Outcome: Succeeded}
				switch rng.IntN(10) {
				case 0:
					r = TaskResult{Outcome: Failed, Reason: "flaky"}
				case 1:
					r = TaskResult{Outcome: Failed, Reason: "preempted", Blameless: true}
				}
				h.finish(l.Attempt, r)
			}
			running = running[n:]
		}
		if cancel {
			continue // the job, forgotten, is unreachable (TestAnEndedJobIsForgotten)
		}
		if st.succeeded != tasks {
			t.Fatalf("%d of %d succeeded", st.succeeded, tasks)
		}
		for c, ch := range st.chunks {
			if ch.tasks != nil {
				t.Errorf("chunk %d kept after every task succeeded", c)
			}
		}
	}
}

func remove(ls []Launch, a AttemptID) []Launch {
	for i, l := range ls {
		if l.Attempt == a {
			return append(ls[:i], ls[i+1:]...)
		}
	}
	return ls
}
