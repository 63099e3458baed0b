package scheduler

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Placement spreads round robin across executors, continuing from where the
// last placement left off.
func TestRoundRobin(t *testing.T) {
	h := newHarness(t, Config{})
	for i := 1; i <= 4; i++ {
		h.exec(fmt.Sprintf("e%d", i), fmt.Sprintf("h%d", i), 4)
	}
	h.submit(oneStage("a", 4, 1, GPURequest{}))
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[] s0/1#0@e2[] s0/2#0@e3[] s0/3#0@e4[]" {
		t.Fatalf("launches %s", got)
	}
	h.submit(oneStage("b", 6, 1, GPURequest{}))
	rd = h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[] s1/1#0@e2[] s1/2#0@e3[] s1/3#0@e4[] s1/4#0@e1[] s1/5#0@e2[]" {
		t.Fatalf("launches %s", got)
	}
	h.submit(oneStage("c", 1, 1, GPURequest{}))
	if got := fmtLaunches(h.ready().Launches); got != "s2/0#0@e3[]" {
		t.Fatalf("launches %s", got)
	}
}

// Spread holds across more executors than one bitmap word, and a freed
// core is found wherever it is.
func TestRoundRobinManyExecutors(t *testing.T) {
	h := newHarness(t, Config{})
	const n = 150
	for i := range n {
		h.exec(fmt.Sprintf("e%03d", i), fmt.Sprintf("h%d", i), 2)
	}
	h.submit(oneStage("a", n, 1, GPURequest{}))
	rd := h.ready()
	for e, c := range perExecutor(rd.Launches) {
		if c != 1 {
			t.Fatalf("%s got %d of the first %d tasks", e, c, n)
		}
	}
	h.submit(oneStage("b", n+5, 1, GPURequest{}))
	rd2 := h.ready()
	if len(rd2.Launches) != n {
		t.Fatalf("%d launches, want %d", len(rd2.Launches), n)
	}
	// Free one core on e077 and e140: the next two tasks go exactly there.
	for _, l := range rd.Launches {
		if l.Executor == "e077" || l.Executor == "e140" {
			h.succeed(l)
		}
	}
	if got := perExecutor(h.ready().Launches); len(got) != 2 || got["e077"] != 1 || got["e140"] != 1 {
		t.Fatalf("launches %v", got)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	// Executors come and go; the bitmap follows.
	for i := 0; i < n; i += 3 {
		h.s.RemoveExecutor(h.now, ExecutorID(fmt.Sprintf("e%03d", i)), ExecutorLoss{Reason: "scale down"})
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	h.exec("f", "hf", 64)
	rd = h.ready()
	if len(rd.Launches) != 64 || perExecutor(rd.Launches)["f"] != 64 {
		t.Fatalf("%d launches: %v", len(rd.Launches), perExecutor(rd.Launches))
	}
}

// Placement is fair to executors of mixed size: GPU tasks pack onto
// addresses, and an executor whose GPUs are full is passed over.
func TestPlacementGPUs(t *testing.T) {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 8, GPUs: 2})
	h.exec("e1", "h1", 8, "0", "1")
	h.exec("e2", "h2", 8, "0") // registered with fewer GPUs than its profile
	h.submit(oneStage("third", 10, 1, gpu(t, 1.0/3)))
	rd := h.ready()
	if got := perExecutor(rd.Launches); got["e1"] != 6 || got["e2"] != 3 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	if got := fmtLaunches(rd.Launches[:4]); got != "s0/0#0@e1[0] s0/1#0@e2[0] s0/2#0@e1[0] s0/3#0@e2[0]" {
		t.Fatalf("launches %s", got)
	}
	why := h.s.WhyPending(h.now, 0)
	if len(why) != 1 || why[0].Reason != ReasonInsufficientResources || why[0].Pending != 1 ||
		why[0].Message != "0/2 executors can take a task: 2 insufficient GPU (0.333333 per task)" {
		t.Fatalf("why %+v", why)
	}
}

// Preferred hosts and executors are honoured during the locality wait,
// then any executor will do.
func TestLocality(t *testing.T) {
	h := newHarness(t, Config{LocalityWait: 3 * time.Second})
	h.exec("e1", "h1", 1)
	h.exec("e2", "h2", 1)
	h.exec("e3", "h3", 1)
	h.submit(oneStage("busy", 1, 1, GPURequest{})) // takes e1
	busy := h.ready().Launches[0]
	spec := oneStage("local", 2, 1, GPURequest{})
	spec.Stages[0].PreferredHosts = []string{"h1"}
	j := h.submit(spec)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("did not wait for h1: %s", fmtLaunches(rd.Launches))
	}
	why := h.s.WhyPending(h.now, j)
	if len(why) != 1 || why[0].Reason != ReasonWaitingForLocality ||
		why[0].Message != "0/3 executors can take a task: 1 insufficient cpu, 2 not a preferred host or executor; waiting 3s more for locality" {
		t.Fatalf("why %+v", why)
	}
	if w, ok := h.s.Wakeup(h.now); !ok || !w.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("wakeup %v %v", w, ok)
	}
	// h1 frees within the wait: the task runs there, and the wait renews.
	h.advance(2 * time.Second)
	h.succeed(busy)
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s1/0#0@e1[]" {
		t.Fatalf("launches %s", got)
	}
	if w, ok := h.s.Wakeup(h.now); !ok || !w.Equal(h.now.Add(3*time.Second)) {
		t.Fatalf("wakeup %v %v: the wait should renew on a local launch", w, ok)
	}
	h.advance(3*time.Second - time.Millisecond)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("fell back early: %s", fmtLaunches(rd.Launches))
	}
	h.advance(time.Millisecond)
	rd = h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Host == "h1" {
		t.Fatalf("after the wait: %s", fmtLaunches(rd.Launches))
	}
	if _, ok := h.s.Wakeup(h.now); ok {
		t.Fatal("a wakeup with nothing pending")
	}
}

func TestPreferredExecutors(t *testing.T) {
	h := newHarness(t, Config{LocalityWait: time.Second})
	h.exec("e1", "h", 2)
	h.exec("e2", "h", 2)
	h.exec("e3", "h", 2)
	spec := oneStage("j", 5, 1, GPURequest{})
	spec.Stages[0].PreferredExecutors = []ExecutorID{"e3", "e2"}
	h.submit(spec)
	rd := h.ready()
	if got := perExecutor(rd.Launches); got["e2"] != 2 || got["e3"] != 2 || len(rd.Launches) != 4 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
	h.advance(time.Second)
	if got := fmtLaunches(h.ready().Launches); got != "s0/4#0@e1[]" {
		t.Fatalf("after the wait: %s", got)
	}

	// With no wait, preferences only order nothing: placement runs at once.
	h0 := newHarness(t, Config{})
	h0.exec("e1", "h1", 1)
	spec = oneStage("j", 1, 1, GPURequest{})
	spec.Stages[0].PreferredHosts = []string{"elsewhere"}
	h0.submit(spec)
	if rd := h0.ready(); len(rd.Launches) != 1 {
		t.Fatal("waited with LocalityWait 0")
	}
}

func TestWhyPending(t *testing.T) {
	h := newHarness(t, exclusionConfig(1, time.Hour, time.Hour), Profile{ID: 0, Cores: 2, GPUs: 1}, Profile{ID: 1, Cores: 4})
	j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{
		{Name: "gpu", Tasks: 3, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(1)}},
		{Name: "cpu", Tasks: 2, Profile: 1, Request: TaskRequest{CPUs: 1}},
		{Name: "after", After: []string{"gpu", "cpu"}, Tasks: 1, Request: TaskRequest{CPUs: 1}},
	}})
	reasons := func() string {
		var b []string
		for _, r := range h.s.WhyPending(h.now, j) {
			b = append(b, fmt.Sprintf("%s:%d:%d:%s", r.Name, r.Pending, r.Reason, r.Message))
		}
		return strings.Join(b, "\n")
	}
	want := `gpu:3:2:no executor of profile 0 (2 cores, 1 GPUs) has registered yet
cpu:2:2:no executor of profile 1 (4 cores, 0 GPUs) has registered yet
after:1:1:waiting for stage "gpu", "cpu"`
	if got := reasons(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	h.exec("g1", "h1", 2, "0")
	h.execOf(1, "c1", "h2", 4)
	// Before Ready: placeable.
	if got := h.s.WhyPending(h.now, j); got[0].Reason != ReasonNone || got[1].Reason != ReasonNone {
		t.Fatalf("%+v", got)
	}
	rd := h.ready()
	want = `gpu:2:3:0/1 executors can take a task: 1 insufficient GPU (1 per task)
after:1:1:waiting for stage "gpu", "cpu"`
	if got := reasons(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	for _, l := range rd.Launches {
		if l.Request.GPU.Whole() == 1 {
			h.fail(l, "x") // excludes h1
		}
	}
	h.ready()
	want = `gpu:3:4:0/1 executors can take a task: 1 on excluded hosts; a failed task waits out its retry backoff, 200ms more
after:1:1:waiting for stage "gpu", "cpu"`
	if got := reasons(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if h.s.WhyPending(h.now, 42) != nil {
		t.Fatal("reasons for an unknown job")
	}
}

func TestDemand(t *testing.T) {
	h := newHarness(t, exclusionConfig(1, time.Hour, time.Hour), Profile{ID: 0, Cores: 4, GPUs: 2}, Profile{ID: 1, Cores: 8})
	h.exec("g1", "h1", 4, "0", "1")
	j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{
		{Name: "half", Tasks: 10, Request: TaskRequest{CPUs: 1, GPU: gpu(t, 0.5)}},
		{Name: "cpu", Tasks: 20, Profile: 1, Request: TaskRequest{CPUs: 2}},
		{Name: "after", After: []string{"half"}, Tasks: 3, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(2)}},
	}})
	k := h.submit(oneStage("k", 1, 4, GPURequest{}))
	h.ready()
	d0 := h.s.Demand(h.now, 0)
	want0 := []StageDemand{{Stage: 0, Running: 4, Pending: 6, TasksPerExecutor: 4}, {Stage: 3, Running: 0, Pending: 1, TasksPerExecutor: 1}}
	if fmt.Sprint(d0) != fmt.Sprint(want0) {
		t.Fatalf("demand 0 %+v, want %+v", d0, want0)
	}
	d1 := h.s.Demand(h.now, 1)
	if fmt.Sprint(d1) != fmt.Sprint([]StageDemand{{Stage: 1, Pending: 20, TasksPerExecutor: 4}}) {
		t.Fatalf("demand 1 %+v", d1)
	}
	if d := h.s.Demand(h.now, 9); len(d) != 0 {
		t.Fatalf("demand of an unknown profile %+v", d)
	}
	if p, _ := h.s.JobProgress(j); p != (Progress{Tasks: 33, Running: 4, Pending: 29}) {
		t.Fatalf("progress %+v", p)
	}
	if err := h.s.CancelJob(k, "x"); err != nil {
		t.Fatal(err)
	}
	// Fail one task: h1 is excluded, and profile 0's demand is on excluded
	// hosts only.
	var first Launch
	for _, r := range h.s.executors["g1"].runningLaunches() {
		if r.Attempt.Task.Stage == 0 {
			first = r
			break
		}
	}
	h.fail(first, "x")
	h.ready()
	d0 = h.s.Demand(h.now, 0)
	if len(d0) != 1 || !d0[0].ExcludedOnly || d0[0].Running != 3 || d0[0].Pending != 7 {
		t.Fatalf("demand %+v", d0)
	}
	if p, _ := h.s.JobProgress(j); p != (Progress{Tasks: 33, Running: 3, Pending: 30, FailedAttempts: 1}) {
		t.Fatalf("progress %+v", p)
	}
}

// The same events on two fresh schedulers give the same decisions.
func TestDeterministicScenario(t *testing.T) {
	run := func() string {
		h := newHarness(t, Config{Mode: FAIR, LocalityWait: time.Second, Pools: []PoolConfig{{Name: "a", Weight: 2, Mode: FAIR}}})
		var log strings.Builder
		for i := range 20 {
			h.exec(fmt.Sprintf("e%d", (i*7)%20), fmt.Sprintf("h%d", i%5), 1+i%4, "0", "1")
		}
		for i := range 10 {
			spec := oneStage(fmt.Sprint(i), 5+i, 1+i%2, gpu(t, []float64{0.5, 1, 0.25, 2}[i%4]))
			spec.Pool = []string{"a", "b", ""}[i%3]
			spec.Stages[0].PreferredHosts = []string{fmt.Sprintf("h%d", i%7)}
			h.submit(spec)
		}
		for step := range 30 {
			rd := h.ready()
			log.WriteString(fmtReady(rd) + "\n")
			for i, l := range rd.Launches {
				if i%3 != step%3 {
					h.finish(l.Attempt, TaskResult{Outcome: Outcome(i % 2), Reason: "r"})
				}
			}
			h.advance(300 * time.Millisecond)
		}
		return log.String()
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("runs differ:\n%s\n---\n%s", a, b)
	}
}
