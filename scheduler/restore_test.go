package scheduler

import (
	"math"
	"slices"
	"testing"
	"time"
)

func checked(t *testing.T, s *Scheduler) {
	t.Helper()
	if msg := checkInternal(s); msg != "" {
		t.Fatal(msg)
	}
}

// A task restored as succeeded is never launched; the others are, the
// ones its restore skipped first.
func TestRestoredTasksDoNotRunAgain(t *testing.T) {
	h := newHarness(t, Config{})
	j := h.submit(oneStage("j", 6, 1, GPURequest{}))
	h.restore(0, 4)
	h.restore(0, 1)
	checked(t, h.s)
	if p, _ := h.s.JobProgress(j); p.Succeeded != 2 || p.Pending != 4 || p.Running != 0 {
		t.Fatalf("progress %+v, want 2 succeeded and 4 pending", p)
	}
	h.exec("e1", "h1", 8)
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[] s0/3#0@e1[] s0/2#0@e1[] s0/5#0@e1[]" {
		t.Fatalf("launches %s, want every task but 1 and 4", got)
	}
	h.succeed(rd.Launches...)
	if rd := h.ready(); len(rd.Finished) != 1 || !rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v, want the job succeeded", rd.Finished)
	}
}

// A stage restored whole succeeds, its children become runnable, and a
// job restored whole is reported finished by the next Ready.
func TestRestoreCompletesStagesAndJobs(t *testing.T) {
	h := newHarness(t, Config{})
	st := func(name string, after ...string) StageSpec {
		return StageSpec{Name: name, After: after, Tasks: 2, Request: TaskRequest{CPUs: 1}}
	}
	j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{st("a"), st("b", "a")}})
	h.restore(0, 1)
	if why := h.s.WhyPending(h.now, j); why[1].Reason != ReasonWaitingForParents {
		t.Fatalf("why pending %+v: b must wait for a", why)
	}
	h.restore(0, 0)
	if why := h.s.WhyPending(h.now, j); len(why) != 1 || why[0].Stage != 1 || why[0].Reason != ReasonNoExecutors {
		t.Fatalf("why pending %+v: b must be runnable", why)
	}
	h.restore(1, 1)
	h.restore(1, 0)
	checked(t, h.s)
	rd := h.s.Ready(h.now)
	if !slices.Equal(rd.StagesSucceeded, []StageID{0, 1}) || len(rd.Finished) != 1 || !rd.Finished[0].Succeeded || rd.Finished[0].Job != j {
		t.Fatalf("ready %+v, want both stages and the job succeeded", rd)
	}
	if _, ok := h.s.JobProgress(j); ok {
		t.Fatal("a finished job is still known")
	}
}

// Restores far ahead and out of order across chunks: every chunk is made
// as placement would make it, dropped once all its tasks succeeded, and
// each task not restored runs exactly once.
func TestRestoreAcrossChunks(t *testing.T) {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 4 * chunkTasks})
	n := 3*chunkTasks + 5
	h.submit(oneStage("j", n, 1, GPURequest{}))
	restored := map[int]bool{}
	for _, idx := range []int{2*chunkTasks + 3, 7, n - 1} {
		h.restore(0, idx)
		restored[idx] = true
	}
	for idx := chunkTasks - 1; idx >= 0; idx-- { // chunk 0, backwards
		if !restored[idx] {
			h.restore(0, idx)
			restored[idx] = true
		}
	}
	checked(t, h.s)
	st := h.s.stages[0]
	if st.launched != n || st.chunks[0].tasks != nil || st.chunks[1].tasks == nil {
		t.Fatalf("launched %d of %d, chunk 0 dropped %v, chunk 1 %v", st.launched, n, st.chunks[0].tasks == nil, st.chunks[1].tasks == nil)
	}
	h.exec("e1", "h1", 4*chunkTasks)
	rd := h.ready()
	ran := map[int]int{}
	for _, l := range rd.Launches {
		ran[l.Attempt.Task.Index]++
	}
	for idx := range n {
		if want := map[bool]int{true: 0, false: 1}[restored[idx]]; ran[idx] != want {
			t.Fatalf("task %d launched %d times, want %d", idx, ran[idx], want)
		}
	}
	h.succeed(rd.Launches...)
	if rd := h.ready(); len(rd.Finished) != 1 || !rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
}

// Restores may come between Ready calls: what placement launched is left
// alone, and what the restores skip runs next.
func TestRestoreBetweenReadyCalls(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	h.submit(oneStage("j", 6, 1, GPURequest{}))
	first := h.ready()
	h.restore(0, 5)
	h.exec("e2", "h2", 4)
	h.adopt("e2", attempt(0, 3, 0))
	checked(t, h.s)
	if got := fmtLaunches(h.ready().Launches); got != "s0/2#0@e2[] s0/4#0@e2[]" {
		t.Fatalf("launches %s, want tasks 2 and 4", got)
	}
	if got := fmtLaunches(first.Launches); got != "s0/0#0@e1[] s0/1#0@e1[]" {
		t.Fatalf("first launches %s", got)
	}
}

// A restore finds a skipped task in the retry queue after placement and
// a requeue have moved the queue under it, whether the place it knew is
// now past the queue's end or holds another task; and it records every
// task's new place, so the next restore finds its own at once.
func TestRestoreAfterTheQueueMoved(t *testing.T) {
	for _, order := range [][2]int{{3, 4}, {4, 3}} {
		h := newHarness(t, Config{})
		h.exec("e1", "h1", 1)
		h.submit(oneStage("j", 8, 1, GPURequest{}))
		h.restore(0, 6) // 0 to 5 skipped, in places 0 to 5
		for range 2 {
			h.succeed(h.ready().Launches...)
		}
		rd := h.ready()
		h.finish(rd.Launches[0].Attempt, TaskResult{Outcome: Failed, Blameless: true}) // the queue slides: 3 4 5 2
		h.restore(0, order[0])
		st := h.s.stages[0]
		for i, idx := range st.retries {
			if st.at(idx).slot != int32(i) {
				t.Fatalf("restored %d: queue %v, task %d thinks it is at %d", order[0], st.retries, idx, st.at(idx).slot)
			}
		}
		h.restore(0, order[1])
		checked(t, h.s)
		var got []string
		for range 4 {
			rd := h.ready()
			got = append(got, fmtLaunches(rd.Launches))
			h.succeed(rd.Launches...)
		}
		slices.Sort(got)
		if want := []string{"", "s0/2#1@e1[]", "s0/5#0@e1[]", "s0/7#0@e1[]"}; !slices.Equal(got, want) {
			t.Fatalf("restoring %v: launches %q, want %q", order, got, want)
		}
	}
}

// What makes replaying a journal linear: each task a restore skips knows
// its place in the retry queue, and the one moved into a place taken out
// learns its new one.
func TestSkippedTasksKnowTheirPlace(t *testing.T) {
	h := newHarness(t, Config{})
	h.submit(oneStage("j", 6, 1, GPURequest{}))
	h.restore(0, 4)
	st := h.s.stages[0]
	places := func() []int32 {
		var p []int32
		for _, idx := range st.retries {
			p = append(p, st.at(idx).slot)
		}
		return p
	}
	if got := places(); !slices.Equal(got, []int32{0, 1, 2, 3}) {
		t.Fatalf("places %v, want 0 to 3", got)
	}
	h.restore(0, 1)
	if !slices.Equal(st.retries, []int32{0, 3, 2}) || !slices.Equal(places(), []int32{0, 1, 2}) {
		t.Fatalf("queue %v, places %v: want task 3 moved into task 1's place", st.retries, places())
	}
}

// An adopted attempt holds its cores and exactly its addresses: nothing
// else is placed on them while it runs, and they are free once it ends.
func TestAdoptHoldsCoresAndAddresses(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 4, "0", "1")
	h.submit(oneStage("j", 4, 1, WholeGPUs(1)))
	h.adopt("e1", attempt(0, 2, 1), "1")
	if ex := h.s.Executors(); ex[0].FreeCores != 3 || ex[0].Running != 1 {
		t.Fatalf("executors %+v: want one running, 3 cores free", ex)
	}
	if got := fmtLaunches(h.ready().Launches); got != "s0/0#0@e1[0]" {
		t.Fatalf("launches %s, want only address 0 used", got)
	}
	h.finish(attempt(0, 2, 1), TaskResult{Outcome: Succeeded})
	if got := fmtLaunches(h.ready().Launches); got != "s0/1#0@e1[1]" {
		t.Fatalf("launches %s, want address 1 free again", got)
	}
	checked(t, h.s)
}

// Adopted shares of an address leave only the rest of it to placement.
func TestAdoptHoldsFractionalShares(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 8, "0", "1")
	h.submit(oneStage("j", 8, 1, gpu(t, 0.25)))
	h.adopt("e1", attempt(0, 5, 0), "1")
	h.adopt("e1", attempt(0, 6, 0), "1")
	h.adopt("e1", attempt(0, 7, 0), "0")
	want := "s0/0#0@e1[0] s0/1#0@e1[0] s0/2#0@e1[0] s0/3#0@e1[1] s0/4#0@e1[1]"
	if got := fmtLaunches(h.ready().Launches); got != want {
		t.Fatalf("launches %s, want %s", got, want)
	}
	h.finish(attempt(0, 6, 0), TaskResult{Outcome: Succeeded})
	checked(t, h.s)
	if g := h.s.executors["e1"].gpus; g.free[0] != 0 || g.free[1] != One/4 {
		t.Fatalf("free shares %v, want address 1's quarter back", g.free)
	}
}

// An adopted attempt ends as one placed here would: its success counts,
// its failure counts and backs off, its executor's loss requeues it
// uncounted (counted when the tasks caused it), and its next attempt is
// numbered after it.
func TestAdoptedAttemptEnds(t *testing.T) {
	lost := func(fault bool) func(h *harness) {
		return func(h *harness) {
			h.must(h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "gone", TaskFault: fault}))
		}
	}
	ended := func(r TaskResult) func(h *harness) {
		return func(h *harness) { h.finish(attempt(0, 1, 3), r) }
	}
	for _, c := range []struct {
		name              string
		end               func(h *harness)
		succeeded, failed int
		next              string // launches after the backoff
	}{
		{"success", ended(TaskResult{Outcome: Succeeded}), 1, 0, ""},
		{"failure", ended(TaskResult{Outcome: Failed, Reason: "boom"}), 0, 1, "s0/1#4@e1[]"},
		{"blameless loss", lost(false), 0, 0, "s0/1#4@e2[]"},
		{"loss of its doing", lost(true), 0, 1, "s0/1#4@e2[]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.exec("e1", "h1", 1)
			h.exec("e2", "h2", 1)
			j := h.submit(oneStage("j", 2, 1, GPURequest{}))
			h.restore(0, 0)
			h.adopt("e1", attempt(0, 1, 3))
			c.end(h)
			checked(t, h.s)
			p, known := h.s.JobProgress(j)
			if c.succeeded == 1 && known {
				t.Fatalf("progress %+v: the job has succeeded", p)
			}
			if c.succeeded == 0 && (p.Succeeded != 1 || p.Pending != 1 || p.FailedAttempts != c.failed) {
				t.Fatalf("progress %+v, want task 1 pending, %d failed attempts", p, c.failed)
			}
			h.advance(time.Second)
			rd := h.ready()
			if got := fmtLaunches(rd.Launches); got != c.next {
				t.Fatalf("launches %q, want %q", got, c.next)
			}
			if done := len(rd.Finished) == 1 && rd.Finished[0].Succeeded; done != (c.succeeded == 1) {
				t.Fatalf("finished %+v", rd.Finished)
			}
		})
	}
}

// The attempt number is bounded by what the scheduler keeps of it: the
// last one allowed is adopted, and runs again numbered past it; a
// negative one is refused.
func TestAdoptAttemptLimit(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	h.submit(oneStage("j", 2, 1, GPURequest{}))
	wantErr(t, h.s.Adopt(h.now, "e1", attempt(0, 0, -1), nil), "attempt number -1: want 0 to 2147483645")
	wantErr(t, h.s.Adopt(h.now, "e1", attempt(0, 0, math.MaxInt32-1), nil), "attempt number 2147483646: want 0 to 2147483645")
	h.adopt("e1", attempt(0, 0, math.MaxInt32-2))
	h.must(h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "preempted"}))
	h.exec("e2", "h2", 2)
	if got := fmtLaunches(h.ready().Launches); got != "s0/0#2147483646@e2[] s0/1#0@e2[]" {
		t.Fatalf("launches %s", got)
	}
}

// An ApplicationMaster attempt's range of attempt numbers holds for
// adopted tasks too: one adopted from an earlier range runs again at
// this range's first number, one numbered past it goes on from its own.
func TestAdoptedTasksGoOnInTheAttemptsRange(t *testing.T) {
	h := newHarness(t, Config{})
	h.must(h.s.NumberAttemptsFrom(1000))
	h.exec("e1", "h1", 3)
	h.submit(oneStage("j", 3, 1, GPURequest{}))
	h.adopt("e1", attempt(0, 0, 5))
	h.adopt("e1", attempt(0, 1, 1200))
	h.must(h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "preempted"}))
	h.exec("e2", "h2", 3)
	if got := fmtLaunches(h.ready().Launches); got != "s0/1#1201@e2[] s0/0#1000@e2[] s0/2#1000@e2[]" {
		t.Fatalf("launches %s", got)
	}
}

// Adopted attempts count as running in their stage, job and pool, so
// fair shares see them: pool a, holding two, gets one of four free cores.
func TestAdoptCountsTowardsFairShares(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}}}, Profile{ID: 0, Cores: 6})
	h.exec("e1", "h1", 6)
	a := h.submit(JobSpec{Name: "a", Pool: "a", Stages: []StageSpec{{Name: "a", Tasks: 6, Request: TaskRequest{CPUs: 1}}}})
	b := h.submit(JobSpec{Name: "b", Pool: "b", Stages: []StageSpec{{Name: "b", Tasks: 6, Request: TaskRequest{CPUs: 1}}}})
	h.adopt("e1", attempt(0, 0, 0))
	h.adopt("e1", attempt(0, 1, 0))
	rd := h.ready()
	if na, nb := len(launchesOf(rd.Launches, a)), len(launchesOf(rd.Launches, b)); na != 1 || nb != 3 {
		t.Fatalf("launched %d of a and %d of b, want 1 and 3", na, nb)
	}
	checked(t, h.s)
}
