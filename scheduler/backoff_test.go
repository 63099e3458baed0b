package scheduler

import (
	"math"
	"testing"
	"time"
)

// The default backoff doubles from 200ms to its 10s cap, and no count of
// failures overflows it.
func TestRetryBackoffDoublesToItsCap(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]time.Duration{
		1: 200 * time.Millisecond, 2: 400 * time.Millisecond, 3: 800 * time.Millisecond,
		6: 6400 * time.Millisecond, 7: 10 * time.Second, 63: 10 * time.Second, 64: 10 * time.Second, MaxAttemptsLimit: 10 * time.Second,
	} {
		if got := s.backoffDelay(n); got != want {
			t.Errorf("after failure %d: %v, want %v", n, got, want)
		}
	}
	wide, _ := New(Config{RetryBackoff: time.Nanosecond, RetryMaxBackoff: math.MaxInt64})
	if got := wide.backoffDelay(63); got != 1<<62 {
		t.Errorf("1ns after failure 63: %v, want 2^62ns", got)
	}
	if got := wide.backoffDelay(64); got != math.MaxInt64 {
		t.Errorf("1ns after failure 64: %v, want the cap", got)
	}
	narrow, _ := New(Config{RetryBackoff: time.Second, RetryMaxBackoff: time.Millisecond})
	if got := narrow.backoffDelay(1); got != time.Millisecond {
		t.Errorf("a base above its cap: %v, want the cap", got)
	}
}

// Tasks whose backoffs end at the same time are queued by stage and
// index, whichever failed first: the same events give the same launches.
func TestBackoffsEndingTogetherQueueInTaskOrder(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	h.submit(oneStage("j", 2, 1, GPURequest{}))
	rd := h.ready()
	h.fail(rd.Launches[1], "x")
	h.fail(rd.Launches[0], "x")
	h.advance(200 * time.Millisecond)
	if got := fmtLaunches(h.ready().Launches); got != "s0/0#1@e1[] s0/1#1@e1[]" {
		t.Fatalf("launches %s, want task 0 then task 1", got)
	}
}

// A job that ends while a task backs off drops the wait: nothing of it
// is launched when the wait runs out, and other jobs are not held up.
func TestBackoffDroppedWithItsJob(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 1)
	j := h.submit(oneStage("j", 1, 1, GPURequest{}))
	h.fail(h.ready().Launches[0], "x")
	if err := h.s.CancelJob(j, "user"); err != nil {
		t.Fatal(err)
	}
	if rd := h.ready(); len(rd.Finished) != 1 || len(rd.Launches) != 0 {
		t.Fatalf("after cancel: %+v", rd)
	}
	k := h.submit(oneStage("k", 1, 1, GPURequest{}))
	if rd := h.ready(); len(rd.Launches) != 1 || rd.Launches[0].Job != k {
		t.Fatalf("the other job: %+v", rd)
	}
	h.advance(time.Second)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched after its job ended: %+v", rd)
	}
	if len(h.s.backoffs) != 0 {
		t.Fatalf("%d waits left in the retry heap", len(h.s.backoffs))
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}

// A Permanent failure fails its job at once, on its first attempt and with
// attempts to spare: it is counted, not against its host, and the job's
// other attempts are killed.
func TestPermanentFailureEndsTheJobAtOnce(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 4, Exclusion: ExclusionConfig{Enabled: true, MaxFailuresPerHost: 1}})
	h.exec("e1", "h1", 2)
	j := h.submit(oneStage("j", 3, 1, GPURequest{}))
	rd := h.ready()
	h.finish(rd.Launches[1].Attempt, TaskResult{Outcome: Failed, Reason: "template: index out of range: 1", Permanent: true})
	if p, _ := h.s.JobProgress(j); p.FailedAttempts != 1 {
		t.Fatalf("progress %+v, want the failure counted", p)
	}
	end := h.ready()
	want := `task 1 of stage "j" failed, and would on every attempt (not retried): template: index out of range: 1`
	if len(end.Finished) != 1 || end.Finished[0].Succeeded || end.Finished[0].Reason != want {
		t.Fatalf("finished %+v, want the job failed: %s", end.Finished, want)
	}
	if len(end.Kills) != 1 || end.Kills[0].Attempt != rd.Launches[0].Attempt || len(end.Launches) != 0 {
		t.Fatalf("%+v, want task 0 killed and nothing launched", end)
	}
	if h.s.hosts["h1"].excluded(h.now) {
		t.Fatal("h1 excluded for a task that could not start")
	}
}

// A task's attempts are bounded: MaxAttemptsLimit is accepted, one more
// is refused, in a stage and as the default alike.
func TestMaxAttemptsLimit(t *testing.T) {
	h := newHarness(t, Config{})
	for _, n := range []int{MaxAttemptsLimit, MaxAttemptsLimit + 1} {
		spec := oneStage("j", 1, 1, GPURequest{})
		spec.Stages[0].MaxAttempts = n
		_, err := h.s.SubmitJob(h.now, spec)
		if n == MaxAttemptsLimit && err != nil {
			t.Fatalf("maxAttempts %d: %v", n, err)
		}
		if n > MaxAttemptsLimit {
			wantErr(t, err, `job "j" stage "j": maxAttempts 101: want 0 (the default) to 100`)
		}
	}
	if _, err := New(Config{MaxTaskFailures: MaxAttemptsLimit}); err != nil {
		t.Fatalf("MaxTaskFailures %d: %v", MaxAttemptsLimit, err)
	}
	_, err := New(Config{MaxTaskFailures: MaxAttemptsLimit + 1})
	wantErr(t, err, "task max failures 101: more than the 100 attempts a task may have")
}

// BenchmarkPlacementRetryBackoff is the steady state of
// BenchmarkPlacementSteadyState with counted failures: each op one task
// fails and waits out its backoff (200ms doubling to 10s, at 1ms an op
// some 10,000 tasks back off at once) while one is placed; a task succeeds
// after 99 failures. One op is one failure and one placement.
func BenchmarkPlacementRetryBackoff(b *testing.B) {
	s := benchScheduler(b)
	for _, st := range s.stages {
		st.maxFailures = MaxAttemptsLimit
	}
	benchSteadyState(b, s, func(a AttemptID) TaskResult {
		if a.Attempt == MaxAttemptsLimit-1 {
			return TaskResult{Outcome: Succeeded}
		}
		return TaskResult{Outcome: Failed, Reason: "exit status 1"}
	})
	b.ReportMetric(float64(len(s.backoffs)), "backing-off")
}
