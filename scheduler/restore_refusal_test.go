package scheduler

import (
	"math"
	"testing"
	"time"
)

// refusal is a restore that must be refused: setup brings a scheduler to
// where call is made (job 0 is two stages, "first" of four tasks asking a
// cpu and a GPU, and "second" after it, asking a cpu and half a GPU; e1
// and e2 have two cores and GPUs 0 and 1, e3 is of profile 1), and the
// error must name want.
type refusal struct {
	name  string
	setup func(h *harness)
	call  func(h *harness) error
	want  []string
}

// Stage ids of refusalJob.
const (
	firstStage  StageID = 0
	secondStage StageID = 1
)

func refusalHarness(t *testing.T) *harness {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 2, GPUs: 2}, Profile{ID: 1, Cores: 2, GPUs: 2})
	h.exec("e1", "h1", 2, "0", "1")
	h.exec("e2", "h2", 2, "0", "1")
	h.execOf(1, "e3", "h3", 2, "0", "1")
	h.submit(JobSpec{Name: "j", Stages: []StageSpec{
		{Name: "first", Tasks: 4, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(1)}},
		{Name: "second", Tasks: 2, After: []string{"first"}, Request: TaskRequest{CPUs: 1, GPU: gpu(t, 0.5)}},
	}})
	return h
}

// restoreAll restores every task of the first stage: the second becomes
// runnable.
func restoreAll(h *harness) {
	for i := range 4 {
		h.restore(firstStage, i)
	}
}

func restoring(stage StageID, idx int) func(h *harness) error {
	return func(h *harness) error { return h.s.RestoreSucceeded(h.now, TaskID{stage, idx}) }
}

func adopting(ex string, a AttemptID, addrs ...string) func(h *harness) error {
	return func(h *harness) error { return h.s.Adopt(h.now, ExecutorID(ex), a, addrs) }
}

func failing(stage StageID, idx, n int) func(h *harness) error {
	return func(h *harness) error { return h.s.RestoreFailures(TaskID{stage, idx}, n) }
}

func nothing(*harness) {}

var failureRefusals = []refusal{
	{"no failure", nothing, failing(firstStage, 0, 0), []string{"restoring 0 failures of stage 0 task 0: want 1 or more"}},
	{"failures of a task that succeeded", func(h *harness) { h.restore(firstStage, 2) }, failing(firstStage, 2, 1), []string{"task already succeeded"}},
	{"failures of a task running", func(h *harness) { h.adopt("e2", attempt(firstStage, 3, 5), "1") }, failing(firstStage, 3, 1), []string{"task already running: attempt 5 on executor e2"}},
	{"failures of a task launched here", func(h *harness) { h.ready() }, failing(firstStage, 1, 1), []string{"task already running: attempt 0 on executor e2"}},
	{"failures in a stage not runnable", nothing, failing(secondStage, 0, 1), []string{`stage "second" is not runnable yet`}},
}

var taskRefusals = []refusal{
	{"unknown stage", nothing, restoring(7, 0), []string{"stage 7 task 0", "no such stage"}},
	{"index below range", nothing, restoring(firstStage, -1), []string{"index -1 out of range", `stage "first" has 4 tasks`}},
	{"index past range", nothing, restoring(firstStage, 4), []string{"index 4 out of range"}},
	{"job ended", func(h *harness) {
		h.ready()                               // launches the first stage's tasks
		h.must(h.s.CancelJob(0, "by the user")) // they are being killed: the job is kept
	}, restoring(firstStage, 3), []string{"job 0 has ended"}},
	{"already succeeded by a restore", func(h *harness) { h.restore(firstStage, 2) }, restoring(firstStage, 2), []string{"task already succeeded"}},
	{"already succeeded here", func(h *harness) { h.succeed(h.ready().Launches[0]) }, restoring(firstStage, 0), []string{"task already succeeded"}},
	{"already succeeded with its stage", restoreAll, restoring(firstStage, 1), []string{"task already succeeded"}},
	{"already running here", func(h *harness) { h.ready() }, restoring(firstStage, 1), []string{"task already running: attempt 0 on executor e2"}},
	{"already adopted", func(h *harness) { h.adopt("e2", attempt(firstStage, 3, 5), "1") }, restoring(firstStage, 3), []string{"task already running: attempt 5 on executor e2"}},
	{"launched here, backing off", func(h *harness) { h.fail(h.ready().Launches[0], "boom") }, restoring(firstStage, 0), []string{"already launched since the restart (attempt 0)"}},
	{"launched here, queued again", func(h *harness) {
		h.finish(h.ready().Launches[1].Attempt, TaskResult{Outcome: Failed, Blameless: true})
	}, restoring(firstStage, 1), []string{"already launched since the restart (attempt 0)"}},
	{"stage waiting for its parent", func(h *harness) { h.restore(firstStage, 0) }, restoring(secondStage, 0), []string{`stage "second" is not runnable yet: it waits for stage "first"`}},
}

var adoptRefusals = []refusal{
	{"what a restore refuses", func(h *harness) { h.restore(firstStage, 1) }, adopting("e1", attempt(firstStage, 1, 0), "0"), []string{"stage 0 task 1 attempt 0 on executor e1", "task already succeeded"}},
	{"attempt at the limit", nothing, adopting("e1", attempt(firstStage, 0, math.MaxInt32-1), "0"), []string{"attempt number 2147483646: want 0 to 2147483645"}},
	{"attempt below zero", nothing, adopting("e1", attempt(firstStage, 0, -1), "0"), []string{"attempt number -1"}},
	{"executor unknown", nothing, adopting("e9", attempt(firstStage, 0, 0), "0"), []string{"executor e9 is not registered"}},
	{"executor removed", func(h *harness) { h.must(h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "gone"})) }, adopting("e1", attempt(firstStage, 0, 0), "0"), []string{"executor e1 is not registered"}},
	{"executor disabled", func(h *harness) { h.must(h.s.DisableExecutor("e1")) }, adopting("e1", attempt(firstStage, 0, 0), "0"), []string{"executor e1 is disabled"}},
	{"executor of another profile", nothing, adopting("e3", attempt(firstStage, 0, 0), "0"), []string{`executor e3 is of profile 1, stage "first" runs on profile 0`}},
	{"no free core", func(h *harness) {
		restoreAll(h)
		h.adopt("e1", attempt(secondStage, 0, 0), "0")
		h.adopt("e1", attempt(secondStage, 1, 0), "0")
		h.submit(JobSpec{Name: "more", Stages: []StageSpec{{Name: "third", Tasks: 1, Request: TaskRequest{CPUs: 1}}}})
	}, adopting("e1", attempt(2, 0, 0)), []string{"executor e1 has 0 cores free, the task holds 1"}},
	{"address not the executor's", nothing, adopting("e1", attempt(firstStage, 0, 0), "7"), []string{`GPU address "7" is not the executor's`}},
	{"address taken whole", func(h *harness) { h.adopt("e1", attempt(firstStage, 1, 0), "0") }, adopting("e1", attempt(firstStage, 0, 0), "0"), []string{`GPU address "0" has 0 free, the task holds 1`}},
	{"whole address partly taken", func(h *harness) {
		restoreAll(h)
		h.adopt("e1", attempt(secondStage, 0, 0), "0")
		h.submit(JobSpec{Name: "more", Stages: []StageSpec{{Name: "whole", Tasks: 1, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(1)}}}})
	}, adopting("e1", attempt(2, 0, 0), "0"), []string{`GPU address "0" has 0.5 free, the task holds 1`}},
	{"share not free", func(h *harness) {
		restoreAll(h)
		h.adopt("e1", attempt(secondStage, 0, 0), "0")
		h.submit(JobSpec{Name: "more", Stages: []StageSpec{{Name: "big", Tasks: 1, Request: TaskRequest{CPUs: 1, GPU: gpu(h.t, 0.75)}}}})
	}, adopting("e1", attempt(2, 0, 0), "0"), []string{`GPU address "0" has 0.5 free, the task holds 0.75`}},
	{"too few addresses", nothing, adopting("e1", attempt(firstStage, 0, 0)), []string{"0 GPU addresses for a request of 1 GPUs, want 1"}},
	{"too many addresses", nothing, adopting("e1", attempt(firstStage, 0, 0), "0", "1"), []string{"2 GPU addresses for a request of 1 GPUs, want 1"}},
	{"two addresses for a share", restoreAll, adopting("e1", attempt(secondStage, 0, 0), "0", "1"), []string{"2 GPU addresses for a request of 0.5 GPUs, want 1"}},
	{"an address for no GPU", func(h *harness) {
		h.submit(JobSpec{Name: "cpu", Stages: []StageSpec{{Name: "plain", Tasks: 1, Request: TaskRequest{CPUs: 1}}}})
	}, adopting("e1", attempt(2, 0, 0), "0"), []string{"1 GPU addresses for a request of 0 GPUs, want 0"}},
	{"an address twice", func(h *harness) {
		h.submit(JobSpec{Name: "two", Stages: []StageSpec{{Name: "pair", Tasks: 1, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(2)}}}})
	}, adopting("e1", attempt(2, 0, 0), "1", "1"), []string{`GPU address "1" given twice`}},
}

// Every refusal names what and why, and changes nothing: the state is as
// it was, and what is placed next is what would have been.
func TestRestoreRefusals(t *testing.T) {
	for _, rs := range [][]refusal{taskRefusals, adoptRefusals, failureRefusals} {
		for _, r := range rs {
			t.Run(r.name, func(t *testing.T) {
				h, twin := refusalHarness(t), refusalHarness(t)
				r.setup(h)
				r.setup(twin)
				before := snapshot(h.s)
				wantErr(t, r.call(h), r.want...)
				if after := snapshot(h.s); after != before {
					t.Fatalf("refused, yet changed:\nbefore\n%s\nafter\n%s", before, after)
				}
				if msg := checkInternal(h.s); msg != "" {
					t.Fatal(msg)
				}
				h.advance(time.Minute)
				twin.advance(time.Minute)
				if got, want := fmtLaunches(h.ready().Launches), fmtLaunches(twin.ready().Launches); got != want {
					t.Fatalf("placed %s after the refusal, %s without it", got, want)
				}
			})
		}
	}
}
