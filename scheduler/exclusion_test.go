package scheduler

import (
	"strings"
	"testing"
	"time"
)

func exclusionConfig(perHost int, timeout, unschedulable time.Duration) Config {
	return Config{MaxTaskFailures: 100, Exclusion: ExclusionConfig{Enabled: true, MaxFailuresPerHost: perHost, Timeout: timeout, UnschedulableTimeout: unschedulable}}
}

// After MaxFailuresPerHost counted failures a host takes no tasks for
// Timeout; its tasks run elsewhere.
func TestHostExclusion(t *testing.T) {
	h := newHarness(t, exclusionConfig(2, 10*time.Minute, 5*time.Minute))
	h.exec("a1", "bad", 1)
	h.exec("a2", "bad", 1)
	h.exec("b1", "good", 1)
	h.submit(oneStage("busy", 1, 1, GPURequest{})) // keeps one executor busy
	rd := h.ready()
	if rd.Launches[0].Executor != "a1" {
		t.Fatalf("%s", fmtLaunches(rd.Launches))
	}
	h.submit(oneStage("j", 1, 1, GPURequest{}))
	l := h.ready().Launches[0]
	if l.Executor != "a2" {
		t.Fatalf("first attempt on %s, want a2", l.Executor)
	}
	h.fail(l, "x")
	h.advance(200 * time.Millisecond) // its retry backoff
	l = h.ready().Launches[0]
	if l.Executor != "b1" {
		t.Fatalf("second attempt on %s: round robin should move on to b1", l.Executor)
	}
	h.succeed(l)
	// A second job fails once more on "bad": two failures there exclude it
	// (both a1 and a2), though they were different jobs.
	h.submit(oneStage("k", 3, 1, GPURequest{}))
	rd = h.ready()
	if got := fmtLaunches(rd.Launches); got != "s2/0#0@a2[] s2/1#0@b1[]" {
		t.Fatalf("launches %s", got)
	}
	h.fail(rd.Launches[0], "y")
	excludedAt := h.now
	if !h.s.hosts["bad"].excluded(h.now) {
		t.Fatal("bad not excluded after 2 failures")
	}
	h.advance(200 * time.Millisecond) // the failed task's retry backoff
	h.succeed(rd.Launches[1])
	rd = h.ready()
	for _, l := range rd.Launches {
		if l.Executor != "b1" {
			t.Fatalf("launch %s on the excluded host", fmtLaunch(l))
		}
	}
	if len(rd.Launches) != 1 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	// a1 frees up; it is still excluded.
	h.succeed(h.s.executors["a1"].runningLaunches()...)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launches %s on an excluded host", fmtLaunches(rd.Launches))
	}
	why := h.s.WhyPending(h.now, 2)
	if len(why) != 1 || why[0].Reason != ReasonInsufficientResources || why[0].Message != "0/3 executors can take a task: 1 insufficient cpu, 2 on excluded hosts" {
		t.Fatalf("why %+v", why)
	}
	// The exclusion's end is the next thing due.
	if w, ok := h.s.Wakeup(h.now); !ok || !w.Equal(excludedAt.Add(10*time.Minute)) {
		t.Fatalf("wakeup %v %v", w, ok)
	}
	// After the timeout the host takes tasks again.
	h.now = excludedAt.Add(10 * time.Minute)
	rd = h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Host != "bad" {
		t.Fatalf("after the exclusion: %s", fmtLaunches(rd.Launches))
	}
}

func (ex *executor) runningLaunches() []Launch {
	var out []Launch
	for _, r := range ex.running {
		t := r.st.task(int(r.idx))
		out = append(out, Launch{Attempt: AttemptID{TaskID{r.st.id, int(r.idx)}, int(t.attempts) - 1}, Executor: ex.spec.ID})
	}
	return out
}

// Failures older than the window do not add up; exclusion off counts
// nothing.
func TestExclusionWindow(t *testing.T) {
	h := newHarness(t, exclusionConfig(2, time.Minute, time.Hour))
	h.exec("e", "h", 1)
	h.submit(oneStage("j", 1, 1, GPURequest{}))
	h.fail(h.ready().Launches[0], "x")
	h.advance(time.Minute)
	h.fail(h.ready().Launches[0], "x")
	if h.s.hosts["h"].excluded(h.now) {
		t.Fatal("excluded for failures a window apart")
	}
	h.advance(59 * time.Second)
	h.fail(h.ready().Launches[0], "x")
	if !h.s.hosts["h"].excluded(h.now) {
		t.Fatal("not excluded for 2 failures within the window")
	}

	off := newHarness(t, Config{MaxTaskFailures: 100})
	off.exec("e", "h", 1)
	off.submit(oneStage("j", 1, 1, GPURequest{}))
	for range 10 {
		off.fail(off.ready().Launches[0], "x")
		off.advance(10 * time.Second) // past any retry backoff
	}
	if off.s.hosts["h"].excluded(off.now) || len(off.ready().Launches) != 1 {
		t.Fatal("exclusion disabled, yet the host is excluded")
	}
}

// A job whose tasks can run only on excluded hosts fails after
// UnschedulableTimeout, with that reason; it never hangs.
func TestUnschedulableFails(t *testing.T) {
	h := newHarness(t, exclusionConfig(1, time.Hour, 2*time.Minute))
	h.exec("e1", "h1", 2)
	h.exec("e2", "h1", 2)
	j := h.submit(oneStage("j", 3, 1, GPURequest{}))
	rd := h.ready()
	h.fail(rd.Launches[0], "x")
	h.advance(200 * time.Millisecond) // its retry backoff
	rd2 := h.ready()
	if len(rd2.Launches) != 0 {
		t.Fatalf("launched on the excluded host: %s", fmtLaunches(rd2.Launches))
	}
	if d := h.s.Demand(h.now, 0); len(d) != 1 || !d[0].ExcludedOnly || d[0].Pending != 1 || d[0].Running != 2 {
		t.Fatalf("demand %+v", d)
	}
	why := h.s.WhyPending(h.now, j)
	if len(why) != 1 || why[0].Reason != ReasonExcludedHosts || why[0].Pending != 1 {
		t.Fatalf("why %+v", why)
	}
	w, ok := h.s.Wakeup(h.now)
	if !ok || !w.Equal(h.now.Add(2*time.Minute)) {
		t.Fatalf("wakeup %v %v, want the unschedulable timeout", w, ok)
	}
	h.advance(2*time.Minute - time.Millisecond)
	if rd := h.ready(); len(rd.Finished) != 0 {
		t.Fatalf("failed early: %+v", rd.Finished)
	}
	h.advance(time.Millisecond)
	rd = h.ready()
	if len(rd.Finished) != 1 || rd.Finished[0].Job != j || rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if r := rd.Finished[0].Reason; !strings.Contains(r, `stage "j" cannot run anywhere`) || !strings.Contains(r, "(h1)") {
		t.Fatalf("reason %q", r)
	}
	if len(rd.Kills) != 2 {
		t.Fatalf("kills %+v", rd.Kills)
	}
}

// An executor on a good host ends the wait.
func TestUnschedulableCleared(t *testing.T) {
	h := newHarness(t, exclusionConfig(1, time.Hour, 2*time.Minute))
	h.exec("e1", "h1", 1)
	h.submit(oneStage("j", 1, 1, GPURequest{}))
	h.fail(h.ready().Launches[0], "x")
	h.ready()
	h.advance(time.Minute)
	h.exec("e2", "h2", 1)
	rd := h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Executor != "e2" {
		t.Fatalf("%+v", rd)
	}
	h.advance(time.Hour - time.Minute - time.Second)
	if rd := h.ready(); len(rd.Finished) != 0 {
		t.Fatalf("failed while running on a good host: %+v", rd.Finished)
	}
}

// The unschedulable clock restarts when a stage becomes schedulable again
// because exclusions ran out: a later exclusion gets the full timeout.
func TestUnschedulableRestartsAfterExpiry(t *testing.T) {
	h := newHarness(t, exclusionConfig(1, time.Minute, 2*time.Minute))
	h.exec("e1", "h1", 1)
	j := h.submit(oneStage("j", 1, 1, GPURequest{}))
	h.fail(h.ready().Launches[0], "x") // h1 excluded until 1m
	h.ready()                          // unschedulable since 0
	h.advance(time.Minute)
	rd := h.ready()
	if len(rd.Launches) != 1 {
		t.Fatalf("not launched after the exclusion: %+v", rd)
	}
	h.advance(50 * time.Second)
	h.fail(rd.Launches[0], "y") // excluded again at 1m50s, until 2m50s
	h.ready()
	h.advance(10 * time.Second) // 2m: 2 minutes after the first episode began
	if rd := h.ready(); len(rd.Finished) != 0 {
		t.Fatalf("job %d failed 10s into its second unschedulable spell: %+v", j, rd.Finished)
	}
	h.advance(50 * time.Second)
	if rd := h.ready(); len(rd.Launches) != 1 {
		t.Fatalf("not launched after the second exclusion: %+v", rd)
	}
}
