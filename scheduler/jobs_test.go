package scheduler

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNewRejectsPools(t *testing.T) {
	for _, tc := range []struct {
		pools []PoolConfig
		want  string
	}{
		{[]PoolConfig{{Name: "a", Weight: 1}, {Name: "a", Weight: 2}}, `pool "a" configured twice`},
		{[]PoolConfig{{Name: "", Weight: 1}}, `pool ""`},
		{[]PoolConfig{{Name: "a", Weight: 0}}, "weight 0"},
		{[]PoolConfig{{Name: "a", Weight: 1, MinShare: -1}}, "minShare -1"},
	} {
		_, err := New(Config{Mode: FAIR, Pools: tc.pools})
		wantErr(t, err, tc.want)
	}
}

func TestSubmitValidation(t *testing.T) {
	h := newHarness(t, Config{})
	st := func(name string, after ...string) StageSpec {
		return StageSpec{Name: name, After: after, Tasks: 1, Request: TaskRequest{CPUs: 1}}
	}
	for _, tc := range []struct {
		name string
		spec JobSpec
		want []string
	}{
		{"no stages", JobSpec{Name: "j"}, []string{`job "j" has no stages`}},
		{"unnamed stage", JobSpec{Name: "j", Stages: []StageSpec{st("a"), st("")}}, []string{"stage 1 has no name"}},
		{"duplicate", JobSpec{Name: "j", Stages: []StageSpec{st("a"), st("b"), st("a")}}, []string{`stage "a"`, "comes earlier"}},
		{"zero tasks", JobSpec{Name: "j", Stages: []StageSpec{{Name: "a", Request: TaskRequest{CPUs: 1}}}}, []string{`stage "a"`, "tasks 0"}},
		{"negative tasks", JobSpec{Name: "j", Stages: []StageSpec{{Name: "a", Tasks: -3, Request: TaskRequest{CPUs: 1}}}}, []string{"tasks -3"}},
		{"negative attempts", JobSpec{Name: "j", Stages: []StageSpec{{Name: "a", Tasks: 1, MaxAttempts: -1, Request: TaskRequest{CPUs: 1}}}}, []string{"maxAttempts -1"}},
		{"unknown profile", JobSpec{Name: "j", Stages: []StageSpec{{Name: "a", Tasks: 1, Profile: 7, Request: TaskRequest{CPUs: 1}}}}, []string{`stage "a"`, "profile 7 is not registered"}},
		{"unknown parent", JobSpec{Name: "j", Stages: []StageSpec{st("a"), st("b", "a", "zz")}}, []string{`stage "b"`, `after "zz"`}},
		{"self cycle", JobSpec{Name: "j", Stages: []StageSpec{st("a", "a")}}, []string{"cycle", "a -> a"}},
		{"cycle", JobSpec{Name: "j", Stages: []StageSpec{st("x"), st("a", "c"), st("b", "a"), st("c", "b", "x")}}, []string{"cycle", "a -> c -> b -> a"}},
	} {
		_, err := h.s.SubmitJob(h.now, tc.spec)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tc.name, err, w)
			}
		}
	}
	if len(h.s.jobs) != 0 || len(h.s.stages) != 0 || h.s.jobSeq != 0 {
		t.Fatal("rejected jobs left state behind")
	}
}

// A diamond: b and c after a, d after both. A stage runs only once every
// parent has succeeded; WhyPending names the parents still running.
func TestDAGOrder(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 4)
	st := func(name string, n int, after ...string) StageSpec {
		return StageSpec{Name: name, After: after, Tasks: n, Request: TaskRequest{CPUs: 1}}
	}
	j := h.submit(JobSpec{Name: "diamond", Stages: []StageSpec{st("d", 1, "b", "c"), st("c", 1, "a"), st("b", 2, "a"), st("a", 2)}})
	// Stage ids follow the spec's order: d=0 c=1 b=2 a=3.
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s3/0#0@e1[] s3/1#0@e1[]" {
		t.Fatalf("first launches %s, want only stage a", got)
	}
	why := h.s.WhyPending(h.now, j)
	if len(why) != 3 || why[0].Reason != ReasonWaitingForParents || why[0].Message != `waiting for stage "b", "c"` {
		t.Fatalf("why pending %+v", why)
	}
	h.succeed(rd.Launches[0])
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched %s with a unfinished", fmtLaunches(rd.Launches))
	}
	h.succeed(rd.Launches[1])
	rd = h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[] s2/0#0@e1[] s2/1#0@e1[]" {
		t.Fatalf("after a: %s", got)
	}
	h.succeed(rd.Launches[1:]...) // b done, c still running
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("d launched before c succeeded: %s", fmtLaunches(rd.Launches))
	}
	if why := h.s.WhyPending(h.now, j); len(why) != 1 || why[0].Message != `waiting for stage "c"` {
		t.Fatalf("why pending %+v", why)
	}
	h.succeed(rd.Launches[0])
	rd = h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[]" {
		t.Fatalf("after b and c: %s", got)
	}
	h.succeed(rd.Launches[0])
	rd = h.ready()
	if len(rd.Finished) != 1 || rd.Finished[0] != (JobResult{Job: j, Name: "diamond", Succeeded: true}) {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if len(h.s.jobs) != 0 || len(h.s.stages) != 0 {
		t.Fatal("a finished job is still tracked")
	}
	if _, ok := h.s.JobProgress(j); ok {
		t.Fatal("progress of a finished job")
	}
}

// Naming a parent twice is the same as naming it once: the child is queued
// once.
func TestDuplicateAfter(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 4)
	j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{
		{Name: "a", Tasks: 1, Request: TaskRequest{CPUs: 1}},
		{Name: "b", After: []string{"a", "a"}, Tasks: 1, Request: TaskRequest{CPUs: 1}},
	}})
	h.succeed(h.ready().Launches...)
	rd := h.ready()
	if len(rd.Launches) != 1 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	h.succeed(rd.Launches...)
	if rd := h.ready(); len(rd.Finished) != 1 || rd.Finished[0].Job != j || !rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if len(h.s.root.runnable) != 0 {
		t.Fatalf("%d stages left runnable", len(h.s.root.runnable))
	}
}

// A task that fails maxFailures times fails its job with the last reason;
// the job's other running attempts are killed, its pending tasks dropped.
func TestMaxFailuresFailsJob(t *testing.T) {
	h := newHarness(t, Config{}) // default 4 attempts
	h.exec("e1", "h1", 2)
	h.exec("e2", "h2", 2)
	j := h.submit(oneStage("j", 10, 1, GPURequest{}))
	other := h.submit(oneStage("other", 1, 1, GPURequest{}))
	rd := h.ready()
	if len(rd.Launches) != 4 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	victim := rd.Launches[0]
	running := rd.Launches[1:]
	for i := range 4 {
		if victim.Attempt.Attempt != i {
			t.Fatalf("attempt %d numbered %d", i, victim.Attempt.Attempt)
		}
		h.fail(victim, "exit status "+string(rune('1'+i)))
		h.advance(10 * time.Second) // past its retry backoff
		rd = h.ready()
		if i < 3 {
			// Retries go first, as in Spark.
			if len(rd.Launches) != 1 || rd.Launches[0].Attempt.Task != victim.Attempt.Task {
				t.Fatalf("after failure %d: launches %s", i+1, fmtLaunches(rd.Launches))
			}
			victim = rd.Launches[0]
			if p, _ := h.s.JobProgress(j); p.FailedAttempts != i+1 {
				t.Fatalf("failed attempts %d, want %d", p.FailedAttempts, i+1)
			}
		}
	}
	if len(rd.Finished) != 1 || rd.Finished[0].Succeeded || rd.Finished[0].Job != j {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if r := rd.Finished[0].Reason; !strings.Contains(r, "failed 4 times") || !strings.Contains(r, "last failure: exit status 4") {
		t.Fatalf("reason %q", r)
	}
	if len(rd.Kills) != 3 {
		t.Fatalf("kills %+v, want the 3 other running attempts", rd.Kills)
	}
	for i, k := range rd.Kills {
		if k.Attempt != running[i].Attempt || k.Executor != running[i].Executor || k.Reason != rd.Finished[0].Reason {
			t.Fatalf("kill %+v, want %v on %s", k, running[i].Attempt, running[i].Executor)
		}
	}
	// The freed slot goes to the other job, not to j's dropped tasks.
	if got := rd.Launches; len(got) != 1 || got[0].Job != other {
		t.Fatalf("launches %s", fmtLaunches(got))
	}
	if p, ok := h.s.JobProgress(j); !ok || p.Pending != 0 || p.Running != 3 {
		t.Fatalf("progress of the failed job %+v %v", p, ok)
	}
	if d := h.s.Demand(h.now, 0); len(d) != 1 || d[0].Running != 1 {
		t.Fatalf("demand %+v: a failed job is no demand", d)
	}
	// Killed attempts report; a success report of one is abandoned too.
	h.finish(running[0].Attempt, TaskResult{Outcome: Killed})
	h.finish(running[1].Attempt, TaskResult{Outcome: Succeeded})
	if _, ok := h.s.JobProgress(j); !ok {
		t.Fatal("job forgotten before its killed attempts reported")
	}
	h.finish(running[2].Attempt, TaskResult{Outcome: Killed})
	if _, ok := h.s.JobProgress(j); ok {
		t.Fatal("job still tracked after its killed attempts reported")
	}
	if rd := h.ready(); len(rd.Finished) != 0 || len(rd.Launches) != 0 {
		t.Fatalf("more after the job ended: %+v", rd)
	}
	err := h.s.TaskFinished(h.now, running[0].Executor, running[0].Attempt, TaskResult{})
	if !errors.Is(err, ErrStaleAttempt) {
		t.Fatalf("second report: %v, want ErrStaleAttempt", err)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	if ex := h.s.Executors(); ex[0].FreeCores+ex[1].FreeCores != 3 {
		t.Fatalf("executors %+v: want 3 free cores with the other job running", ex)
	}
}

// A stage's MaxAttempts overrides the default.
func TestStageMaxAttempts(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 5})
	h.exec("e1", "h1", 1)
	spec := oneStage("j", 1, 1, GPURequest{})
	spec.Stages[0].MaxAttempts = 1
	h.submit(spec)
	h.fail(h.ready().Launches[0], "oom")
	rd := h.ready()
	if len(rd.Finished) != 1 || rd.Finished[0].Succeeded || !strings.Contains(rd.Finished[0].Reason, "failed once; last failure: oom") {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if len(rd.Kills) != 0 || len(h.s.jobs) != 0 {
		t.Fatalf("kills %+v, jobs %d", rd.Kills, len(h.s.jobs))
	}

	// And the config's default is used when the stage says nothing.
	h2 := newHarness(t, Config{MaxTaskFailures: 2})
	h2.exec("e1", "h1", 1)
	h2.submit(oneStage("j", 1, 1, GPURequest{}))
	h2.fail(h2.ready().Launches[0], "x")
	h2.advance(200 * time.Millisecond) // its retry backoff
	rd = h2.ready()
	if len(rd.Launches) != 1 || len(rd.Finished) != 0 {
		t.Fatalf("after 1 of 2: %+v", rd)
	}
	h2.fail(rd.Launches[0], "y")
	if rd := h2.ready(); len(rd.Finished) != 1 || !strings.Contains(rd.Finished[0].Reason, "last failure: y") {
		t.Fatalf("after 2 of 2: %+v", rd)
	}
}

// Blameless failures run the task again without counting.
func TestBlamelessFailures(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 1, Exclusion: ExclusionConfig{Enabled: true, MaxFailuresPerHost: 1}})
	h.exec("e1", "h1", 1)
	j := h.submit(oneStage("j", 1, 1, GPURequest{}))
	l := h.ready().Launches[0]
	for i := range 10 {
		h.finish(l.Attempt, TaskResult{Outcome: Failed, Reason: "preempted", Blameless: true})
		rd := h.ready()
		if len(rd.Launches) != 1 || len(rd.Finished) != 0 || rd.Launches[0].Executor != "e1" {
			t.Fatalf("blameless failure %d: %+v", i, rd)
		}
		l = rd.Launches[0]
	}
	if l.Attempt.Attempt != 10 {
		t.Fatalf("attempt %d, want 10", l.Attempt.Attempt)
	}
	if p, _ := h.s.JobProgress(j); p.FailedAttempts != 0 {
		t.Fatalf("blameless failures counted: %+v", p)
	}
	h.succeed(l)
	if rd := h.ready(); len(rd.Finished) != 1 || !rd.Finished[0].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
}

// A lost executor's attempts run again elsewhere, uncounted; with
// TaskFault they count.
func TestExecutorLost(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 2})
	h.exec("e1", "h1", 2)
	h.exec("e2", "h2", 2)
	j := h.submit(oneStage("j", 4, 1, GPURequest{}))
	rd := h.ready()
	if pe := perExecutor(rd.Launches); pe["e1"] != 2 || pe["e2"] != 2 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	onE1 := launchesOf(rd.Launches, j)
	for i := 0; i < len(onE1); {
		if onE1[i].Executor != "e1" {
			onE1 = append(onE1[:i], onE1[i+1:]...)
		} else {
			i++
		}
	}
	for range 3 { // lost three times: never counted
		if err := h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "node lost"}); err != nil {
			t.Fatal(err)
		}
		h.exec("e1", "h1", 2)
		rd = h.ready()
		if len(rd.Launches) != 2 || rd.Launches[0].Executor != "e1" || len(rd.Kills) != 0 || len(rd.Finished) != 0 {
			t.Fatalf("after loss: %+v", rd)
		}
	}
	if p, _ := h.s.JobProgress(j); p.FailedAttempts != 0 || p.Running != 4 {
		t.Fatalf("progress %+v", p)
	}
	for _, l := range onE1 {
		if err := h.s.TaskFinished(h.now, l.Executor, l.Attempt, TaskResult{}); !errors.Is(err, ErrStaleAttempt) {
			t.Fatalf("report from the lost executor: %v", err)
		}
	}
	wantErr(t, h.s.RemoveExecutor(h.now, "nope", ExecutorLoss{}), "executor nope is not registered")

	// TaskFault: both attempts on e1 count; a second such loss fails the
	// job, and kills only what runs elsewhere (e2), not e1's attempts.
	h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "container killed for memory", TaskFault: true})
	if p, _ := h.s.JobProgress(j); p.FailedAttempts != 2 {
		t.Fatalf("progress %+v, want 2 counted failures", p)
	}
	h.advance(200 * time.Millisecond) // their retry backoff
	h.exec("e3", "h3", 2)
	rd = h.ready()
	if len(rd.Launches) != 2 || rd.Launches[0].Executor != "e3" {
		t.Fatalf("after fault: %+v", rd)
	}
	h.s.RemoveExecutor(h.now, "e3", ExecutorLoss{Reason: "container killed for memory", TaskFault: true})
	rd = h.ready()
	if len(rd.Finished) != 1 || rd.Finished[0].Succeeded || !strings.Contains(rd.Finished[0].Reason, "executor e3 on h3 lost: container killed for memory") {
		t.Fatalf("finished %+v", rd.Finished)
	}
	for _, k := range rd.Kills {
		if k.Executor != "e2" {
			t.Fatalf("kill %+v sent to an executor that is gone", k)
		}
	}
	if len(rd.Kills) != 2 {
		t.Fatalf("kills %+v, want e2's two", rd.Kills)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	for _, k := range rd.Kills {
		h.finish(k.Attempt, TaskResult{Outcome: Killed})
	}
	if len(h.s.jobs) != 0 {
		t.Fatal("job still tracked")
	}
}

// Losing an executor while one of its attempts is being killed ends that
// attempt.
func TestExecutorLostWhileKilling(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	j := h.submit(oneStage("j", 2, 1, GPURequest{}))
	h.ready()
	if err := h.s.CancelJob(j, "user"); err != nil {
		t.Fatal(err)
	}
	rd := h.ready()
	if len(rd.Kills) != 2 || len(rd.Finished) != 1 || rd.Finished[0].Reason != "cancelled: user" {
		t.Fatalf("%+v", rd)
	}
	h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "gone"})
	if len(h.s.jobs) != 0 {
		t.Fatal("cancelled job still tracked")
	}
	if rd := h.ready(); len(rd.Finished)+len(rd.Kills)+len(rd.Launches) != 0 {
		t.Fatalf("%+v", rd)
	}
	wantErr(t, h.s.CancelJob(j, "again"), "not running")
}

func TestCancelJob(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 1)
	a := h.submit(oneStage("a", 3, 1, GPURequest{}))
	b := h.submit(oneStage("b", 1, 1, GPURequest{}))
	rd := h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Job != a {
		t.Fatalf("%+v", rd)
	}
	// b has nothing running: cancelled, it ends at once.
	if err := h.s.CancelJob(b, "not needed"); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.s.JobProgress(b); ok {
		t.Fatal("b still tracked")
	}
	h.s.CancelJob(a, "stop")
	rd = h.ready()
	if len(rd.Finished) != 2 || rd.Finished[0].Job != b || rd.Finished[1].Job != a || rd.Finished[1].Reason != "cancelled: stop" || rd.Finished[1].Succeeded {
		t.Fatalf("finished %+v", rd.Finished)
	}
	if len(rd.Kills) != 1 {
		t.Fatalf("kills %+v", rd.Kills)
	}
	wantErr(t, h.s.CancelJob(a, "again"), "job 0 is not running")
	wantErr(t, h.s.CancelJob(99, "x"), "job 99 is not running")
}

func TestStaleReports(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	h.submit(oneStage("j", 2, 1, GPURequest{}))
	rd := h.ready()
	l := rd.Launches[0]
	for _, a := range []AttemptID{
		{TaskID{99, 0}, 0},
		{TaskID{l.Attempt.Task.Stage, -1}, 0},
		{TaskID{l.Attempt.Task.Stage, 2}, 0},
		{l.Attempt.Task, 1},
	} {
		if err := h.s.TaskFinished(h.now, l.Executor, a, TaskResult{}); !errors.Is(err, ErrStaleAttempt) {
			t.Fatalf("%v: %v", a, err)
		}
	}
	// Only the executor running an attempt says how it ended.
	if err := h.s.TaskFinished(h.now, "e2", l.Attempt, TaskResult{Outcome: Succeeded}); !errors.Is(err, ErrStaleAttempt) {
		t.Fatalf("a report of %v from another executor: %v", l.Attempt, err)
	}
	h.fail(l, "x")
	if err := h.s.TaskFinished(h.now, l.Executor, l.Attempt, TaskResult{}); !errors.Is(err, ErrStaleAttempt) {
		t.Fatalf("second report of a failed attempt: %v", err)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}

func TestExecutorRegistration(t *testing.T) {
	h := newHarness(t, Config{})
	wantErr(t, h.s.AddExecutor(t0, ExecutorSpec{Host: "h", Cores: 1}), "no id")
	wantErr(t, h.s.AddExecutor(t0, ExecutorSpec{ID: "e", Host: "h", Profile: 3, Cores: 1}), "profile 3")
	wantErr(t, h.s.AddExecutor(t0, ExecutorSpec{ID: "e", Host: "h", Cores: 0}), "cores 0")
	h.exec("e", "h", 1)
	wantErr(t, h.s.AddExecutor(t0, ExecutorSpec{ID: "e", Host: "h", Cores: 1}), "already registered")
}

// The slices of a Ready stay as they were until the next call to Ready,
// whatever events come in meanwhile.
func TestReadyStableUntilNextReady(t *testing.T) {
	h := newHarness(t, Config{MaxTaskFailures: 1})
	h.exec("e1", "h1", 4)
	a := h.submit(oneStage("a", 2, 1, GPURequest{}))
	h.submit(oneStage("b", 2, 1, GPURequest{}))
	rd := h.s.Ready(h.now)
	h.s.CancelJob(a, "x")
	rd = h.s.Ready(h.now) // kills a's two attempts
	want := copyReady(rd)
	if len(want.Kills) != 2 || len(want.Finished) != 1 {
		t.Fatalf("%+v", want)
	}
	// Before the caller gets to the kills, b fails: more kills and a
	// finished job are queued for the next Ready.
	var bl Launch
	for _, l := range h.s.executors["e1"].running {
		if l.st.job.id != a {
			bl = Launch{Attempt: AttemptID{TaskID{l.st.id, int(l.idx)}, 0}}
			break
		}
	}
	h.fail(bl, "boom")
	if got := copyReady(rd); fmtReady(got) != fmtReady(want) {
		t.Fatalf("an event changed the last Ready:\n got %s\nwant %s", fmtReady(got), fmtReady(want))
	}
	next := h.ready()
	if len(next.Kills) != 1 || len(next.Finished) != 1 || next.Finished[0].Name != "b" {
		t.Fatalf("next %+v", next)
	}
}

func fmtReady(rd Ready) string {
	var b strings.Builder
	b.WriteString(fmtLaunches(rd.Launches))
	for _, k := range rd.Kills {
		b.WriteString(" kill " + k.Attempt.String() + "@" + string(k.Executor))
	}
	for _, f := range rd.Finished {
		b.WriteString(" finished " + f.Name + " " + f.Reason)
	}
	return b.String()
}

// Idle since: registration, then the end of the last task; zero while busy.
func TestExecutorsIdleSince(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e2", "h2", 2)
	h.advance(time.Second)
	h.exec("e1", "h1", 2)
	ex := h.s.Executors()
	if len(ex) != 2 || ex[0].ID != "e1" || !ex[0].IdleSince.Equal(t0.Add(time.Second)) || !ex[1].IdleSince.Equal(t0) {
		t.Fatalf("executors %+v", ex)
	}
	h.submit(oneStage("j", 3, 1, GPURequest{}))
	rd := h.ready()
	ex = h.s.Executors()
	if !ex[0].IdleSince.IsZero() || !ex[1].IdleSince.IsZero() || ex[0].Running+ex[1].Running != 3 || ex[0].FreeCores+ex[1].FreeCores != 1 {
		t.Fatalf("executors %+v", ex)
	}
	h.advance(time.Minute)
	base := h.now
	for _, l := range rd.Launches {
		h.succeed(l)
		h.advance(time.Second)
	}
	ex = h.s.Executors()
	for _, e := range ex {
		last := time.Time{}
		for _, l := range rd.Launches {
			if l.Executor == e.ID {
				last = base.Add(time.Second * time.Duration(indexOf(rd.Launches, l)))
			}
		}
		if !e.IdleSince.Equal(last) || e.FreeCores != 2 || e.Running != 0 {
			t.Fatalf("executor %+v, want idle since %v", e, last)
		}
	}
}

func indexOf(ls []Launch, l Launch) int {
	for i := range ls {
		if ls[i].Attempt == l.Attempt {
			return i
		}
	}
	return -1
}

// An executor whose end is not yet explained takes no new task, keeps the
// ones it runs, and its later removal blames them or not as told.
func TestDisabledExecutorTakesNothingNewAndAwaitsItsLoss(t *testing.T) {
	for _, fault := range []bool{false, true} {
		h := newHarness(t, Config{})
		h.exec("e1", "h1", 2)
		j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: 4, Request: TaskRequest{CPUs: 1}}}})
		rd := h.ready()
		if len(rd.Launches) != 2 {
			t.Fatalf("launches %s", fmtLaunches(rd.Launches))
		}
		if err := h.s.DisableExecutor("e1"); err != nil {
			t.Fatal(err)
		}
		wantErr(t, h.s.DisableExecutor("nope"), "executor nope is not registered")
		h.succeed(rd.Launches[0]) // a report still arriving frees a core...
		if rd := h.ready(); len(rd.Launches) != 0 {
			t.Fatalf("disabled executor given %s", fmtLaunches(rd.Launches)) // ...that is not used
		}
		if p, _ := h.s.JobProgress(j); p.Running != 1 || p.Succeeded != 1 {
			t.Fatalf("progress %+v: the running attempt must stay running", p)
		}
		if msg := checkInternal(h.s); msg != "" {
			t.Fatal(msg)
		}
		h.s.RemoveExecutor(h.now, "e1", ExecutorLoss{Reason: "container exited with status 137", TaskFault: fault})
		if p, _ := h.s.JobProgress(j); p.FailedAttempts != map[bool]int{false: 0, true: 1}[fault] {
			t.Fatalf("fault %v: progress %+v", fault, p)
		}
		h.exec("e2", "h2", 2)
		if rd := h.ready(); len(rd.Launches) != 2 || rd.Launches[0].Executor != "e2" {
			t.Fatalf("after the loss: %s", fmtLaunches(rd.Launches))
		}
	}
}

// An executor enabled again takes tasks as before; an executor that was
// never disabled, enabled, changes nothing.
func TestEnabledExecutorTakesTasksAgain(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 2)
	h.submit(JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: 4, Request: TaskRequest{CPUs: 1}}}})
	if err := h.s.DisableExecutor("e1"); err != nil {
		t.Fatal(err)
	}
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("disabled executor given %s", fmtLaunches(rd.Launches))
	}
	for range 2 { // the second time it is enabled already
		if err := h.s.EnableExecutor("e1"); err != nil {
			t.Fatal(err)
		}
		if msg := checkInternal(h.s); msg != "" {
			t.Fatal(msg)
		}
	}
	wantErr(t, h.s.EnableExecutor("nope"), "executor nope is not registered")
	rd := h.ready()
	if len(rd.Launches) != 2 || rd.Launches[0].Executor != "e1" {
		t.Fatalf("enabled executor given %s, want 2 tasks", fmtLaunches(rd.Launches))
	}
	// Full, it is not marked free by being enabled.
	if err := h.s.EnableExecutor("e1"); err != nil {
		t.Fatal(err)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("a full executor given %s", fmtLaunches(rd.Launches))
	}
}
