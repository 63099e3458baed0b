package scheduler

import (
	"strings"
	"testing"
	"time"
)

// specHarness runs a stage of n one-core tasks on 4-core executors e1..
// (as many as the tasks need), speculation on as cfg says, and returns
// the first launches.
func specHarness(t *testing.T, cfg SpeculationConfig, spec JobSpec, execs int) (*harness, []Launch) {
	t.Helper()
	h := newHarness(t, Config{Speculation: cfg}, Profile{ID: 0, Cores: 4})
	for i := range execs {
		h.exec(string(rune('a'+i))+"1", string(rune('a'+i))+"-host", 4)
	}
	h.submit(spec)
	return h, h.ready().Launches
}

var on = SpeculationConfig{Enabled: true}

func speculative(ls []Launch) []Launch {
	var out []Launch
	for _, l := range ls {
		if l.Speculative {
			out = append(out, l)
		}
	}
	return out
}

// Before floor(0.75 × 20) = 15 tasks succeeded no task is a straggler,
// however long it runs; the 15th success makes those running longer than
// 1.5 × the median stragglers at once.
func TestSpeculationWaitsForTheQuantile(t *testing.T) {
	h, ls := specHarness(t, on, oneStage("s", 20, 1, GPURequest{}), 5)
	if len(ls) != 20 {
		t.Fatalf("%d launches, want 20", len(ls))
	}
	h.advance(time.Second)
	h.succeed(ls[:14]...)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("14 of 20 succeeded: launches %s", fmtLaunches(rd.Launches))
	}
	if w, ok := h.s.Wakeup(h.now); ok {
		t.Fatalf("wakeup at %v before the quantile", w)
	}
	h.advance(time.Minute)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("14 of 20 succeeded, the rest running a minute: launches %s", fmtLaunches(rd.Launches))
	}
	h.succeed(ls[14])
	copies := speculative(h.ready().Launches)
	if len(copies) != 5 {
		t.Fatalf("15 of 20 succeeded, 5 running a minute: copies %s, want 5", fmtLaunches(copies))
	}
	for i, c := range copies {
		if c.Attempt.Task != ls[15+i].Attempt.Task || c.Attempt.Attempt != 1 || c.Executor == ls[15+i].Executor {
			t.Errorf("copy %s of %s: want attempt 1 of the same task elsewhere", fmtLaunch(c), fmtLaunch(ls[15+i]))
		}
	}
}

// Speculation is off unless the configuration or the stage turns it on,
// and a stage's word overrides the default.
func TestSpeculationIsPerStage(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name  string
		cfg   SpeculationConfig
		stage *bool
		want  bool
	}{
		{"default off", SpeculationConfig{}, nil, false},
		{"stage on", SpeculationConfig{}, &yes, true},
		{"config on", on, nil, true},
		{"stage off", on, &no, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := oneStage("s", 4, 1, GPURequest{})
			spec.Stages[0].Speculation = c.stage
			h, ls := specHarness(t, c.cfg, spec, 2)
			h.advance(time.Second)
			h.succeed(ls[:3]...)
			h.advance(time.Hour)
			if got := len(speculative(h.ready().Launches)) == 1; got != c.want {
				t.Errorf("a copy of the straggler: %v, want %v", got, c.want)
			}
		})
	}
}

// A gang stage never speculates; asking it to is refused.
func TestGangNeverSpeculates(t *testing.T) {
	spec := oneStage("g", 4, 1, GPURequest{})
	spec.Stages[0].Gang = true
	h, ls := specHarness(t, on, spec, 2)
	h.advance(time.Second)
	h.succeed(ls[:3]...)
	h.advance(time.Hour)
	if copies := speculative(h.ready().Launches); len(copies) != 0 {
		t.Fatalf("gang copies %s", fmtLaunches(copies))
	}
	yes := true
	spec.Stages[0].Speculation = &yes
	if _, err := h.s.SubmitJob(h.now, spec); err == nil || !strings.Contains(err.Error(), "a gang stage cannot speculate") {
		t.Fatalf("gang with speculation: %v", err)
	}
}

// The threshold is max(minTaskRuntime, multiplier × median): a short
// median waits for minTaskRuntime, and the copy starts only once the
// straggler has run longer than it, not at it.
func TestSpeculationThresholdBoundary(t *testing.T) {
	h, ls := specHarness(t, SpeculationConfig{Enabled: true, MinTaskRuntime: 500 * time.Millisecond}, oneStage("s", 4, 1, GPURequest{}), 2)
	h.advance(10 * time.Millisecond)
	h.succeed(ls[:3]...) // median 10ms: 1.5 × 10ms < 500ms
	h.ready()
	if w, ok := h.s.Wakeup(h.now); !ok || w != t0.Add(500*time.Millisecond+1) {
		t.Fatalf("wakeup %v %v, want the first moment past 500ms", w, ok)
	}
	h.now = t0.Add(500 * time.Millisecond)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("at the threshold: %s", fmtLaunches(rd.Launches))
	}
	h.advance(1)
	if copies := speculative(h.ready().Launches); len(copies) != 1 || copies[0].Attempt != (AttemptID{ls[3].Attempt.Task, 1}) {
		t.Fatalf("past the threshold: copies %s", fmtLaunches(copies))
	}
}

// straggling returns a harness whose task 3 of 4 runs with its copy: the
// task on a1, the copy on b1.
func straggling(t *testing.T) (h *harness, orig, cp Launch) {
	t.Helper()
	h, ls := specHarness(t, on, oneStage("s", 4, 1, GPURequest{}), 2)
	h.advance(time.Second)
	h.succeed(ls[:3]...)
	h.advance(time.Hour)
	copies := speculative(h.ready().Launches)
	if len(copies) != 1 {
		t.Fatalf("copies %s, want one", fmtLaunches(copies))
	}
	return h, ls[3], copies[0]
}

// The task's own attempt wins: the copy is killed, and its killed report
// counts as no failure and runs nothing again.
func TestOriginalWinsCopyIsKilled(t *testing.T) {
	h, orig, cp := straggling(t)
	h.succeed(orig)
	rd := h.ready()
	if len(rd.Kills) != 1 || rd.Kills[0].Attempt != cp.Attempt || rd.Kills[0].Executor != cp.Executor {
		t.Fatalf("kills %+v, want the copy %s", rd.Kills, fmtLaunch(cp))
	}
	if len(rd.Finished) != 1 || !rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
	h.finish(cp.Attempt, TaskResult{Outcome: Killed, Reason: "killed"})
	if rd := h.ready(); len(rd.Launches)+len(rd.Failures)+len(rd.Kills) != 0 {
		t.Fatalf("after the loser's report: %+v", rd)
	}
	if len(h.s.jobs) != 0 {
		t.Fatalf("job kept after its last attempt reported")
	}
	for _, e := range h.s.Executors() {
		if e.Running != 0 || e.FreeCores != 4 {
			t.Errorf("executor %+v holds something", e)
		}
	}
}

// A job that succeeded is kept until its loser reports: the loser holds
// its executor's core till then.
func TestLoserHoldsItsCoreUntilItReports(t *testing.T) {
	h, orig, cp := straggling(t)
	h.succeed(cp)
	rd := h.ready()
	if len(rd.Kills) != 1 || rd.Kills[0].Attempt != orig.Attempt || len(rd.Finished) != 1 {
		t.Fatalf("kills %+v finished %+v, want the original killed and the job done", rd.Kills, rd.Finished)
	}
	ex := h.s.executors[orig.Executor]
	if ex.freeCores != 3 {
		t.Fatalf("loser's executor has %d free cores, want 3", ex.freeCores)
	}
	h.finish(orig.Attempt, TaskResult{Outcome: Killed})
	if ex.freeCores != 4 || len(h.s.jobs) != 0 {
		t.Fatalf("after its report: %d free cores, %d jobs", ex.freeCores, len(h.s.jobs))
	}
}

// One attempt failing while the other runs counts, but is not retried:
// the other may still succeed. The copy failing leaves the task's own
// attempt, which, straggling, may get a new copy; the own attempt
// failing leaves the copy running as the task's attempt.
func TestFailureBesideTheOtherAttempt(t *testing.T) {
	for _, copyFails := range []bool{true, false} {
		h, orig, cp := straggling(t)
		failed, left := orig, cp
		if copyFails {
			failed, left = cp, orig
		}
		h.fail(failed, "exit 1")
		rd := h.ready()
		copies := speculative(rd.Launches)
		if len(rd.Launches) != len(copies) || len(copies) != btoi(copyFails) || len(rd.Failures) != 1 || len(rd.Kills) != 0 {
			t.Fatalf("copy fails %v: launches %s failures %v kills %v", copyFails, fmtLaunches(rd.Launches), rd.Failures, rd.Kills)
		}
		h.succeed(left)
		rd = h.ready()
		if len(rd.Finished) != 1 || !rd.Finished[0].Succeeded || len(rd.Kills) != len(copies) {
			t.Fatalf("copy fails %v: finished %+v kills %+v, new copies %s", copyFails, rd.Finished, rd.Kills, fmtLaunches(copies))
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Cancelling a job kills both attempts of a speculated task; it is
// forgotten once both reported.
func TestCancelKillsBothAttempts(t *testing.T) {
	h, orig, cp := straggling(t)
	if err := h.s.CancelJob(0, "user"); err != nil {
		t.Fatal(err)
	}
	rd := h.ready()
	if len(rd.Kills) != 2 || rd.Kills[0].Attempt != orig.Attempt || rd.Kills[1].Attempt != cp.Attempt {
		t.Fatalf("kills %+v, want the original then the copy", rd.Kills)
	}
	h.finish(orig.Attempt, TaskResult{Outcome: Killed})
	if len(h.s.jobs) != 1 {
		t.Fatal("job forgotten with its copy still running")
	}
	h.finish(cp.Attempt, TaskResult{Outcome: Killed})
	if len(h.s.jobs) != 0 {
		t.Fatal("job kept after both attempts reported")
	}
}

// The copy's executor lost: the task's own attempt runs on, alone, and
// may get a copy again.
func TestCopyLostWithItsExecutor(t *testing.T) {
	h, orig, cp := straggling(t)
	if err := h.s.RemoveExecutor(h.now, cp.Executor, ExecutorLoss{Reason: "gone"}); err != nil {
		t.Fatal(err)
	}
	rd := h.ready()
	if len(rd.Launches) != 0 || len(rd.Failures) != 0 {
		t.Fatalf("after the copy's loss: launches %s failures %v", fmtLaunches(rd.Launches), rd.Failures)
	}
	h.exec("c1", "c-host", 4)
	if copies := speculative(h.ready().Launches); len(copies) != 1 || copies[0].Attempt != (AttemptID{orig.Attempt.Task, 2}) || copies[0].Executor != "c1" {
		t.Fatalf("a new copy: %s", fmtLaunches(copies))
	}
}

// A copy never runs where its task does: with one executor it waits,
// and is demand (as Spark's dynamic allocation counts speculative
// tasks) until another executor comes.
func TestCopyWaitsForAnotherExecutor(t *testing.T) {
	h, ls := specHarness(t, on, oneStage("s", 4, 1, GPURequest{}), 1)
	h.advance(time.Second)
	h.succeed(ls[:3]...)
	h.advance(time.Hour)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("copy on its task's executor: %s", fmtLaunches(rd.Launches))
	}
	d := h.s.Demand(h.now, 0)
	if len(d) != 1 || d[0].Speculative != 1 || d[0].Pending != 0 || d[0].Running != 1 {
		t.Fatalf("demand %+v, want 1 running and 1 speculative", d)
	}
	h.exec("b1", "b-host", 4)
	if copies := speculative(h.ready().Launches); len(copies) != 1 || copies[0].Executor != "b1" {
		t.Fatalf("copies %s, want one on b1", fmtLaunches(copies))
	}
}
