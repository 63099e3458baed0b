package scheduler

import (
	"strings"
	"testing"
)

// jobsOf renders which job each launch is for: "aabab".
func jobsOf(ls []Launch, names map[JobID]string) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(names[l.Job])
	}
	return b.String()
}

// FIFO: job submission order, then stage id; pools do not matter.
func TestFIFOOrder(t *testing.T) {
	h := newHarness(t, Config{Mode: FIFO, Pools: []PoolConfig{{Name: "vip", Weight: 100, MinShare: 10}}})
	h.exec("e1", "h1", 3)
	names := map[JobID]string{}
	names[h.submit(JobSpec{Name: "a", Pool: "other", Stages: []StageSpec{
		{Name: "a2", Tasks: 2, Request: TaskRequest{CPUs: 1}},
		{Name: "a1", Tasks: 2, Request: TaskRequest{CPUs: 1}},
	}})] = "a"
	names[h.submit(JobSpec{Name: "b", Pool: "vip", Stages: []StageSpec{{Name: "b", Tasks: 5, Request: TaskRequest{CPUs: 1}}}})] = "b"
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[] s0/1#0@e1[] s1/0#0@e1[]" {
		t.Fatalf("launches %s", got)
	}
	var order strings.Builder
	for range 6 {
		h.succeed(rd.Launches[0])
		rd.Launches = rd.Launches[1:]
		next := h.ready()
		order.WriteString(jobsOf(next.Launches, names))
		rd.Launches = append(rd.Launches, next.Launches...)
	}
	if order.String() != "abbbbb" {
		t.Fatalf("order %q, want a's last task then b's", order.String())
	}
}

// FIFO does not block later jobs behind one that cannot fit: they take what
// is left.
func TestFIFOSkipsWhatCannotFit(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 4, "0")
	a := h.submit(oneStage("a", 2, 1, WholeGPUs(1)))
	b := h.submit(oneStage("b", 5, 1, GPURequest{}))
	rd := h.ready()
	if len(launchesOf(rd.Launches, a)) != 1 || len(launchesOf(rd.Launches, b)) != 3 {
		t.Fatalf("launches %s", fmtLaunches(rd.Launches))
	}
}

func TestFairLess(t *testing.T) {
	p := func(name string, running, weight, minShare int) *pool {
		return &pool{cfg: PoolConfig{Name: name, Weight: weight, MinShare: minShare}, running: running}
	}
	for _, tc := range []struct {
		a, b *pool
		want bool
	}{
		{p("a", 0, 1, 0), p("b", 0, 1, 0), true},       // tie: name
		{p("b", 0, 1, 0), p("a", 0, 1, 0), false},      // tie: name
		{p("a", 1, 1, 0), p("b", 0, 1, 0), false},      // fewer running
		{p("a", 2, 2, 0), p("b", 1, 1, 0), true},       // 2/2 = 1/1: name
		{p("b", 2, 2, 0), p("a", 1, 1, 0), false},      // 2/2 = 1/1: name
		{p("a", 3, 2, 0), p("b", 1, 1, 0), false},      // 1.5 > 1
		{p("a", 5, 1, 6), p("b", 0, 1, 0), true},       // needy first
		{p("a", 0, 9, 0), p("b", 5, 1, 6), false},      // needy first
		{p("a", 1, 1, 4), p("b", 1, 1, 2), true},       // needy: 1/4 < 1/2
		{p("a", 2, 1, 4), p("b", 1, 1, 2), true},       // needy: 2/4 = 1/2: name
		{p("b", 2, 1, 4), p("a", 1, 1, 2), false},      // needy: equal: name
		{p("a", 3, 1, 4), p("b", 1, 1, 2), false},      // needy: 3/4 > 1/2
		{p("a", 4, 1, 4), p("b", 5, 1, 5), true},       // neither needy at its minShare: 4/1 < 5/1
		{p("a", 3, 1, 3), p("b", 100, 50, 200), false}, // a at its minShare, b needy
	} {
		want := tc.want
		if got := fairLess(tc.a, tc.b); got != want {
			t.Errorf("fairLess(%+v, %+v) = %v, want %v", *tc.a, *tc.b, got, want)
		}
	}
}

// FAIR root: weights share the executors; the ties go by pool name.
func TestFairWeights(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}}})
	h.exec("e1", "h1", 6)
	names := map[JobID]string{}
	names[h.submit(JobSpec{Name: "a", Pool: "a", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "a"
	names[h.submit(JobSpec{Name: "b", Pool: "b", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "b"
	rd := h.ready()
	if got := jobsOf(rd.Launches, names); got != "abbabb" {
		t.Fatalf("order %q, want abbabb", got)
	}
	// An a task ends: a is below its share and gets the slot back.
	for _, l := range rd.Launches {
		if names[l.Job] == "a" {
			h.succeed(l)
			break
		}
	}
	if got := jobsOf(h.ready().Launches, names); got != "a" {
		t.Fatalf("order %q, want a", got)
	}
	if p, ok := h.s.PoolProgress("b"); !ok || p.Running != 4 || p.Pending != 96 || p.Tasks != 100 {
		t.Fatalf("pool b %+v %v", p, ok)
	}
	if _, ok := h.s.PoolProgress("nope"); ok {
		t.Fatal("progress of an unknown pool")
	}
}

// FAIR root: a pool below its minShare comes first whatever the weights.
func TestFairMinShare(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "heavy", Weight: 10}, {Name: "small", Weight: 1, MinShare: 3}}})
	h.exec("e1", "h1", 8)
	names := map[JobID]string{}
	names[h.submit(JobSpec{Name: "h", Pool: "heavy", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "h"
	names[h.submit(JobSpec{Name: "s", Pool: "small", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "s"
	if got := jobsOf(h.ready().Launches, names); got != "ssshhhhh" {
		t.Fatalf("order %q, want small's minShare first", got)
	}
}

// Within a pool: FIFO runs its jobs in order; FAIR shares between them.
func TestWithinPool(t *testing.T) {
	for _, tc := range []struct {
		mode SchedulingMode
		want string
	}{
		{FIFO, "xxxx"},
		{FAIR, "xyxy"},
	} {
		h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "p", Weight: 1, Mode: tc.mode}}})
		h.exec("e1", "h1", 4)
		names := map[JobID]string{}
		names[h.submit(JobSpec{Name: "x", Pool: "p", Stages: []StageSpec{{Name: "s", Tasks: 10, Request: TaskRequest{CPUs: 1}}}})] = "x"
		names[h.submit(JobSpec{Name: "y", Pool: "p", Stages: []StageSpec{{Name: "s", Tasks: 10, Request: TaskRequest{CPUs: 1}}}})] = "y"
		if got := jobsOf(h.ready().Launches, names); got != tc.want {
			t.Errorf("%v pool: order %q, want %q", tc.mode, got, tc.want)
		}
	}
}

// A pool a job names but nothing configures: weight 1, minShare 0, FIFO.
// An empty pool name is "default".
func TestUnconfiguredPool(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Pools: []PoolConfig{{Name: "three", Weight: 3}}})
	h.exec("e1", "h1", 8)
	names := map[JobID]string{}
	names[h.submit(JobSpec{Name: "n", Pool: "new", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "n"
	names[h.submit(JobSpec{Name: "m", Pool: "new", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "m"
	names[h.submit(JobSpec{Name: "t", Pool: "three", Stages: []StageSpec{{Name: "s", Tasks: 100, Request: TaskRequest{CPUs: 1}}}})] = "t"
	if got := h.s.pools["new"].cfg; got != DefaultPoolConfig("new") || got != (PoolConfig{Name: "new", Mode: FIFO, Weight: 1}) {
		t.Fatalf("unconfigured pool %+v", got)
	}
	rd := h.ready()
	counts := map[string]int{}
	for _, l := range rd.Launches {
		counts[names[l.Job]]++
	}
	if counts["n"] != 2 || counts["m"] != 0 || counts["t"] != 6 {
		t.Fatalf("counts %v, want n:2 (FIFO within the pool) t:6 (weight 3)", counts)
	}
	h.submit(JobSpec{Name: "d", Stages: []StageSpec{{Name: "s", Tasks: 1, Request: TaskRequest{CPUs: 1}}}})
	if _, ok := h.s.PoolProgress("default"); !ok {
		t.Fatal("no default pool")
	}
}

func TestParseSchedulingMode(t *testing.T) {
	for in, want := range map[string]SchedulingMode{"FIFO": FIFO, "fair": FAIR, "Fair": FAIR, "fifo": FIFO} {
		if got, err := ParseSchedulingMode(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	_, err := ParseSchedulingMode("lifo")
	wantErr(t, err, `"lifo"`)
	if FAIR.String() != "FAIR" || FIFO.String() != "FIFO" {
		t.Error("mode names")
	}
}
