package scheduler

import (
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"
)

// watched holds weak pointers to a job and its stages: once nothing in
// the scheduler refers to them, a garbage collection clears them.
type watched struct {
	job    weak.Pointer[job]
	stages []weak.Pointer[stage]
}

func watch(s *Scheduler, id JobID) watched {
	j := s.jobs[id]
	w := watched{job: weak.Make(j)}
	for _, st := range j.stages {
		w.stages = append(w.stages, weak.Make(st))
	}
	return w
}

// gone fails t unless the job and its stages have been collected.
func (w watched) gone(t *testing.T) {
	t.Helper()
	runtime.GC()
	runtime.GC()
	if w.job.Value() != nil {
		t.Error("the ended job is still reachable")
	}
	for i, st := range w.stages {
		if st.Value() != nil {
			t.Errorf("stage %d of the ended job is still reachable", i)
		}
	}
}

// An ended job keeps nothing of itself in the scheduler, whichever way it
// ended: the executors that ran its tasks, the retry heap its failed tasks
// waited in, and the pools it was queued in no longer refer to it. (A slot
// of an executor's running list once kept the stage of its last task, and
// with it every task of the stage, for the executor's life.)
func TestAnEndedJobIsForgotten(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode SchedulingMode
		end  func(h *harness, id JobID, running []Launch)
	}{
		{"succeeded", FIFO, func(h *harness, id JobID, running []Launch) {
			for len(running) > 0 {
				h.succeed(running...)
				running = h.ready().Launches
			}
		}},
		{"failed", FAIR, func(h *harness, id JobID, running []Launch) {
			// One failure waits out its backoff in the retry heap while
			// another ends the job.
			h.fail(running[0], "first")
			h.finish(running[1].Attempt, TaskResult{Outcome: Failed, Reason: "never", Permanent: true})
			for _, k := range h.ready().Kills {
				h.finish(k.Attempt, TaskResult{Outcome: Killed})
			}
		}},
		{"cancelled", FAIR, func(h *harness, id JobID, running []Launch) {
			if err := h.s.CancelJob(id, "enough"); err != nil {
				t.Fatal(err)
			}
			for _, k := range h.ready().Kills {
				h.finish(k.Attempt, TaskResult{Outcome: Killed})
			}
		}},
		{"cancelled, its executor lost", FIFO, func(h *harness, id JobID, running []Launch) {
			if err := h.s.CancelJob(id, "enough"); err != nil {
				t.Fatal(err)
			}
			h.ready()
			if err := h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "gone"}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Mode: tc.mode, LocalityWait: time.Second})
			h.exec("e1", "h1", 4)
			spec := JobSpec{Name: "j", Pool: "p", Stages: []StageSpec{
				{Name: "a", Tasks: 10, Request: TaskRequest{CPUs: 1}, MaxAttempts: 2, PreferredHosts: []string{"h1"}},
				{Name: "b", After: []string{"a"}, Tasks: 3, Request: TaskRequest{CPUs: 1}},
			}}
			id := h.submit(spec)
			w := watch(h.s, id)
			running := h.ready().Launches
			if len(running) != 4 {
				t.Fatalf("%d launches, want 4", len(running))
			}
			tc.end(h, id, running)
			if _, ok := h.s.JobProgress(id); ok {
				t.Fatal("the job is still active")
			}
			w.gone(t)
			// The scheduler goes on: a later job runs on the same executors.
			if tc.name != "cancelled, its executor lost" {
				h.submit(oneStage("next", 1, 1, GPURequest{}))
				if n := len(h.ready().Launches); n != 1 {
					t.Fatalf("the next job: %d launches, want 1", n)
				}
			}
		})
	}
}

// poolNames lists the pools Pools shows, by name.
func poolNames(s *Scheduler) []string {
	var names []string
	for _, p := range s.Pools() {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	return names
}

// A pool made for a job's pool name is forgotten once no job is left in
// it, a job cancelled with its tasks running once they have reported; a
// pool the configuration defines, and the default pool, stay. A later job
// naming a forgotten pool gets it made afresh.
func TestAnUndefinedPoolIsForgottenOnceEmpty(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "vip", Weight: 2}}})
	h.exec("e1", "h1", 4)
	one := func(name, pool string) JobID {
		return h.submit(JobSpec{Name: name, Pool: pool, Stages: []StageSpec{{Name: "s", Tasks: 1, Request: TaskRequest{CPUs: 1}}}})
	}
	first, second := one("first", "tmp"), one("second", "tmp")
	vip, plain := one("vip", "vip"), one("plain", "")
	w := weak.Make(h.s.pools["tmp"])
	rd := h.ready()
	if len(rd.Launches) != 4 {
		t.Fatalf("%d launches, want 4", len(rd.Launches))
	}
	want := func(names ...string) {
		t.Helper()
		if got := poolNames(h.s); !slices.Equal(got, names) {
			t.Fatalf("pools %v, want %v", got, names)
		}
	}
	want("default", "tmp", "vip")
	h.succeed(launchesOf(rd.Launches, first)...)
	h.ready()
	want("default", "tmp", "vip") // second is still in it
	if err := h.s.CancelJob(second, "enough"); err != nil {
		t.Fatal(err)
	}
	kills := h.ready().Kills
	want("default", "tmp", "vip") // until its killed task reports
	for _, k := range kills {
		h.finish(k.Attempt, TaskResult{Outcome: Killed})
	}
	want("default", "vip")
	if _, ok := h.s.PoolProgress("tmp"); ok {
		t.Error("PoolProgress finds the forgotten pool")
	}
	h.succeed(launchesOf(rd.Launches, vip)...)
	h.succeed(launchesOf(rd.Launches, plain)...)
	h.ready()
	want("default", "vip")
	runtime.GC()
	runtime.GC()
	if w.Value() != nil {
		t.Error("the forgotten pool is still reachable")
	}
	// The name again: a pool of Spark's defaults, with nothing of the old.
	again := one("again", "tmp")
	if n := len(launchesOf(h.ready().Launches, again)); n != 1 {
		t.Fatalf("the job in the pool made again: %d launches, want 1", n)
	}
	for _, p := range h.s.Pools() {
		if p.Name == "tmp" && (p.Running != 1 || p.Jobs != 1 || p.Weight != 1) {
			t.Errorf("the pool made again: %+v, want 1 running, 1 job, weight 1", p)
		}
	}
}
