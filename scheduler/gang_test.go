package scheduler

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// gangJob is a job of one gang stage of n tasks of 1 cpu and 1 GPU.
func gangJob(t testing.TB, name string, n int) JobSpec {
	spec := oneStage(name, n, 1, gpu(t, 1))
	spec.Stages[0].Gang = true
	return spec
}

// twoGPUExecs registers n executors of 4 cores and 2 GPUs, e1 on h1...
func twoGPUExecs(h *harness, n int) {
	for i := 1; i <= n; i++ {
		id := string(rune('0' + i))
		h.exec("e"+id, "h"+id, 4, "0", "1")
	}
}

// A gang launches only when every task fits, then all in one batch: at
// exactly its size it launches, one slot short it launches nothing.
func TestGangAllOrNothing(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 1)
	h.submit(gangJob(t, "g", 3))
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("2 slots for a gang of 3: launched %s", fmtLaunches(rd.Launches))
	}
	h.exec("e2", "h2", 4, "0") // one slot more: 3 of 3
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[0] s0/1#0@e1[1] s0/2#0@e2[0]" {
		t.Fatalf("launches %s", got)
	}
}

// While a gang waits, its profile's executors take no other stage's new
// task: what frees up is kept for the gang, which launches once it has
// all; the stage held back runs after.
func TestGangHoldsFreedExecutors(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 1)
	busy := h.ready()
	h.submit(oneStage("a", 2, 1, gpu(t, 1)))
	busy = h.ready()
	h.submit(gangJob(t, "g", 2))
	h.submit(oneStage("b", 1, 1, gpu(t, 1)))
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched %s", fmtLaunches(rd.Launches))
	}
	h.succeed(busy.Launches[0])
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("a slot freed for the gang went to %s", fmtLaunches(rd.Launches))
	}
	h.succeed(busy.Launches[1])
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[0] s1/1#0@e1[1]" {
		t.Fatalf("launches %s", got)
	}
	h.succeed(rd.Launches...)
	if got := fmtLaunches(h.ready().Launches); got != "s2/0#0@e1[0]" {
		t.Fatalf("held-back stage: launches %s", got)
	}
}

// One gang acquires at a time, in submission order: a later, smaller gang
// that would fit does not take the slots the first gathers, so two gangs
// never each hold part of what they need.
func TestGangsAcquireOneAtATime(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 2)
	h.submit(oneStage("a", 4, 1, gpu(t, 1)))
	busy := h.ready()
	h.submit(gangJob(t, "g1", 3))
	h.submit(gangJob(t, "g2", 1))
	h.succeed(busy.Launches[0])
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched %s while g1 acquires", fmtLaunches(rd.Launches))
	}
	h.succeed(busy.Launches[1], busy.Launches[2])
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[0] s1/1#0@e1[1] s1/2#0@e2[0]" {
		t.Fatalf("launches %s", got)
	}
	h.succeed(busy.Launches[3])
	if got := fmtLaunches(h.ready().Launches); got != "s2/0#0@e2[1]" {
		t.Fatalf("g2: launches %s", got)
	}
}

// A try times out at Gang.Timeout exactly, not a tick before; hard, it
// tries again, and after MaxRetries retries the job fails naming the
// gang and what was missing.
func TestGangTimeoutRetriesThenFails(t *testing.T) {
	h := newHarness(t, Config{Gang: GangConfig{Timeout: 5 * time.Second, MaxRetries: 1}})
	twoGPUExecs(h, 1)
	h.submit(gangJob(t, "x", 3))
	h.ready()
	if at, ok := h.s.Wakeup(h.now); !ok || !at.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("wakeup %v %v, want the timeout", at, ok)
	}
	h.advance(5*time.Second - time.Nanosecond)
	if rd := h.ready(); len(rd.GangTimeouts) != 0 {
		t.Fatalf("timed out a tick early: %+v", rd.GangTimeouts)
	}
	h.advance(time.Nanosecond)
	rd := h.ready()
	if len(rd.GangTimeouts) != 1 || rd.GangTimeouts[0].Try != 1 || len(rd.Finished) != 0 {
		t.Fatalf("first timeout: %+v, finished %+v", rd.GangTimeouts, rd.Finished)
	}
	h.advance(5*time.Second - time.Nanosecond)
	if rd := h.ready(); len(rd.GangTimeouts) != 0 {
		t.Fatalf("second try timed out early: %+v", rd.GangTimeouts)
	}
	h.advance(time.Nanosecond)
	rd = h.ready()
	if len(rd.Finished) != 1 || rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
	want := `gang stage "x" of job "x": 2 of 3 tasks (1 cpu, 1 GPU each) placeable within 5s, 2 tries`
	if rd.Finished[0].Reason != want {
		t.Fatalf("reason %q\nwant   %q", rd.Finished[0].Reason, want)
	}
}

// Soft: after its first timeout the gang runs as an ordinary stage,
// placing what fits.
func TestGangSoftRunsAsOrdinary(t *testing.T) {
	h := newHarness(t, Config{Gang: GangConfig{Timeout: time.Second, Soft: true}})
	twoGPUExecs(h, 1)
	h.submit(gangJob(t, "x", 3))
	h.ready()
	h.advance(time.Second)
	rd := h.ready()
	if len(rd.GangTimeouts) != 1 || !rd.GangTimeouts[0].Soft || !strings.Contains(rd.GangTimeouts[0].Message, "ordinary stage") {
		t.Fatalf("timeouts %+v", rd.GangTimeouts)
	}
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[0] s0/1#0@e1[1]" {
		t.Fatalf("launches %s", got)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}

// One task of a gang failing stops the others (their kills name the
// restart) and, once they report, the whole gang runs again in one
// batch; the stopped ones are not blamed, the restart counts once.
func TestGangRestartsWhole(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 2)
	spec := gangJob(t, "g", 3)
	spec.Stages[0].MaxAttempts = 2
	h.submit(spec)
	first := h.ready()
	h.fail(first.Launches[1], "exit 1")
	rd := h.ready()
	if len(rd.Kills) != 2 || len(rd.Launches) != 0 || !strings.Contains(rd.Kills[0].Reason, `gang stage "g" restarts: task 1 ended: exit 1`) {
		t.Fatalf("kills %+v launches %s", rd.Kills, fmtLaunches(rd.Launches))
	}
	h.finish(first.Launches[0].Attempt, TaskResult{Outcome: Killed, Reason: "killed"})
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("relaunched with one still stopping: %s", fmtLaunches(rd.Launches))
	}
	h.finish(first.Launches[2].Attempt, TaskResult{Outcome: Killed, Reason: "killed"})
	second := h.ready()
	if got := fmtLaunches(second.Launches); got != "s0/1#1@e1[0] s0/0#1@e1[1] s0/2#1@e2[0]" {
		t.Fatalf("relaunch %s", got)
	}
	h.s.RemoveExecutor(h.now, "e2", ExecutorLoss{Reason: "node gone"}) // blameless: not counted
	for _, l := range second.Launches[:2] {
		h.finish(l.Attempt, TaskResult{Outcome: Killed, Reason: "killed"})
	}
	third := h.ready()
	if len(third.Launches) != 0 {
		t.Fatalf("3 of 4 slots left: launched %s", fmtLaunches(third.Launches))
	}
	h.exec("e3", "h3", 4, "0", "1")
	third = h.ready()
	if len(third.Launches) != 3 || len(third.Finished) != 0 {
		t.Fatalf("third run: %s, finished %+v", fmtLaunches(third.Launches), third.Finished)
	}
	h.fail(third.Launches[0], "exit 2") // the second counted failure: maxAttempts 2
	rd = h.ready()
	if len(rd.Finished) != 1 || !strings.Contains(rd.Finished[0].Reason, `gang stage "g" failed 2 times; last failure: task`) {
		t.Fatalf("finished %+v", rd.Finished)
	}
}

// A waiting gang says why it waits: its slots free and when its try
// times out, or which gang acquires before it.
func TestGangWhyPending(t *testing.T) {
	h := newHarness(t, Config{Gang: GangConfig{Timeout: 12 * time.Second}})
	twoGPUExecs(h, 1)
	g1 := h.submit(gangJob(t, "g1", 4))
	g2 := h.submit(gangJob(t, "g2", 1))
	h.ready()
	h.advance(2 * time.Second)
	if got := h.s.WhyPending(h.now, g1); len(got) != 1 || got[0].Reason != ReasonGang || got[0].Message != "gang of 4 × 1 cpu, 1 GPU: 2 of 4 slots free, times out in 10s" {
		t.Fatalf("g1: %+v", got)
	}
	if got := h.s.WhyPending(h.now, g2); len(got) != 1 || got[0].Message != `gang of 1 × 1 cpu, 1 GPU: gang stage "g1" of job "g1" acquires first` {
		t.Fatalf("g2: %+v", got)
	}
}

// The gang acquiring asks for the executors that hold all its tasks at
// once: 3 tasks of 1 GPU on executors of 2 GPUs need 2.
func TestAcquiringGangCountsExecutors(t *testing.T) {
	h := newHarness(t, Config{})
	if _, ok := h.s.AcquiringGang(); ok {
		t.Fatal("a gang acquires with none submitted")
	}
	h.submit(gangJob(t, "g", 3))
	h.ready()
	w, ok := h.s.AcquiringGang()
	if !ok || w.Tasks != 3 || w.Executors != 2 {
		t.Fatalf("acquiring %+v %v, want 3 tasks on 2 executors", w, ok)
	}
}

// A stage held back while the gang waited places in the same Ready once
// the gang has launched: the round after a gang's launch runs at once.
func TestGangLaunchFreesHeldStagesAtOnce(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 2)
	h.submit(oneStage("a", 2, 1, gpu(t, 1)))
	h.submit(gangJob(t, "g", 2))
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[0] s1/1#0@e1[1] s0/0#0@e2[0] s0/1#0@e2[1]" {
		t.Fatalf("launches %s", got)
	}
}

// A gang's task that succeeded while a sibling runs is done only
// provisionally: rank 0 exits 0, then rank 2 fails, and the gang runs
// again with all 4 ranks, rank 0 included; the stage and the job are
// not done before every rank of one run has succeeded.
func TestGangRestartRerunsSucceededTasks(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 2)
	spec := gangJob(t, "g", 4)
	spec.Stages = append(spec.Stages, StageSpec{Name: "after", Tasks: 1, Request: TaskRequest{CPUs: 1}, After: []string{"g"}})
	h.submit(spec)
	first := h.ready()
	h.succeed(first.Launches[0])
	if rd := h.ready(); len(rd.StagesSucceeded) != 0 || len(rd.Launches) != 0 || len(rd.GangTasksDone) != 0 {
		t.Fatalf("rank 0 done alone: stages %v launches %s done %v", rd.StagesSucceeded, fmtLaunches(rd.Launches), rd.GangTasksDone)
	}
	if p, _ := h.s.JobProgress(0); p.Succeeded != 0 {
		t.Fatalf("progress counts a provisional success: %+v", p)
	}
	h.fail(first.Launches[2], "exit 1")
	rd := h.ready()
	if len(rd.Kills) != 2 {
		t.Fatalf("kills %+v, want ranks 1 and 3", rd.Kills)
	}
	for _, k := range rd.Kills {
		h.finish(k.Attempt, TaskResult{Outcome: Killed, Reason: "killed"})
	}
	second := h.ready()
	if got := fmtLaunches(second.Launches); got != "s0/2#1@e1[0] s0/0#1@e1[1] s0/1#1@e2[0] s0/3#1@e2[1]" {
		t.Fatalf("relaunch %s, want all 4 ranks", got)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	h.succeed(second.Launches[:3]...)
	if rd := h.ready(); len(rd.StagesSucceeded) != 0 || len(rd.Launches) != 0 || len(rd.Finished) != 0 || len(rd.GangTasksDone) != 0 {
		t.Fatalf("3 of 4 done: stages %v launches %s finished %+v done %v", rd.StagesSucceeded, fmtLaunches(rd.Launches), rd.Finished, rd.GangTasksDone)
	}
	h.succeed(second.Launches[3])
	rd = h.ready()
	if len(rd.StagesSucceeded) != 1 || fmtLaunches(rd.Launches) != "s1/0#0@e1[]" {
		t.Fatalf("whole gang done: stages %v launches %s", rd.StagesSucceeded, fmtLaunches(rd.Launches))
	}
	if got := fmt.Sprint(rd.GangTasksDone); got != "[{0 0} {0 1} {0 2} {0 3}]" {
		t.Fatalf("gang tasks done %s, want all 4 at once", got)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}

// A gang's task restored as succeeded (an earlier AM attempt journalled
// it) counts towards its run: the 2 others launched and succeeded make
// the stage done. A task that succeeded provisionally here cannot be
// restored: its success is not final yet.
func TestGangCountsRestoredTasks(t *testing.T) {
	h := newHarness(t, Config{})
	twoGPUExecs(h, 2)
	h.submit(gangJob(t, "g", 3))
	if err := h.s.RestoreSucceeded(h.now, TaskID{0, 0}); err != nil {
		t.Fatal(err)
	}
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/1#0@e1[0] s0/2#0@e1[1]" {
		t.Fatalf("launches %s", got)
	}
	h.succeed(rd.Launches[0])
	err := h.s.RestoreSucceeded(h.now, TaskID{0, 1})
	if err == nil || !strings.Contains(err.Error(), "task already succeeded since the restart, its gang not yet") {
		t.Fatalf("restoring a provisional success: %v", err)
	}
	h.succeed(rd.Launches[1])
	if rd := h.ready(); len(rd.StagesSucceeded) != 1 || len(rd.Finished) != 1 || !rd.Finished[0].Succeeded {
		t.Fatalf("stages %v finished %+v", rd.StagesSucceeded, rd.Finished)
	}
}

// A gang stage's failures in earlier ApplicationMaster attempts count
// against the stage, whichever task had them: one more failure of any
// of its tasks then fails the job at maxAttempts; restored failures
// that reach it fail the job at once.
func TestGangRestoredFailuresCountForTheStage(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 2})
	twoGPUExecs(h, 1)
	h.submit(gangJob(t, "g", 2))
	h.must(h.s.RestoreFailures(TaskID{0, 1}, 1))
	if p, _ := h.s.JobProgress(0); p.FailedAttempts != 1 || p.Pending != 2 {
		t.Fatalf("progress %+v after a restored failure", p)
	}
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[0] s0/1#0@e1[1]" {
		t.Fatalf("launches %s", got)
	}
	h.fail(rd.Launches[0], "exit status 1")
	rd = h.ready()
	if len(rd.Finished) != 1 || !strings.Contains(rd.Finished[0].Reason, `gang stage "g" failed 2 times`) {
		t.Fatalf("finished %+v, want the job failed by its second failure", rd.Finished)
	}
	h.submit(gangJob(t, "again", 2))
	h.must(h.s.RestoreFailures(TaskID{1, 0}, 2))
	rd = h.ready()
	if len(rd.Launches) != 0 || len(rd.Finished) != 1 || rd.Finished[0].Reason != `gang stage "again" failed 2 times, in earlier attempts of the ApplicationMaster` {
		t.Fatalf("launched %s, finished %+v", fmtLaunches(rd.Launches), rd.Finished)
	}
}
