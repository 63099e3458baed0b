package scheduler

import (
	"math"
	"testing"
)

// drfHarness is a FAIR scheduler with the given fairness and pools, on an
// executor of 16 cores and 8 whole GPUs (one, so that no core is left
// where no GPU is), with a
// CPU-only pool "cpu" and a GPU pool "gpu" each holding more tasks than fit.
func drfHarness(t *testing.T, f Fairness, pools ...PoolConfig) (*harness, map[JobID]string) {
	t.Helper()
	h := newHarness(t, Config{Mode: FAIR, Fairness: f, Pools: pools}, Profile{ID: 0, Cores: 16, GPUs: 8})
	h.exec("e1", "h1", 16, "0", "1", "2", "3", "4", "5", "6", "7")
	return h, submitCPUAndGPUPools(h)
}

// submitCPUAndGPUPools submits a job of 100 one-cpu tasks "c" to pool
// "cpu" and one of 100 one-GPU tasks "g" to pool "gpu", and names them.
func submitCPUAndGPUPools(h *harness) map[JobID]string {
	names := map[JobID]string{}
	cpu := oneStage("c", 100, 1, GPURequest{})
	cpu.Pool = "cpu"
	gpuJob := oneStage("g", 100, 1, WholeGPUs(1))
	gpuJob.Pool = "gpu"
	names[h.submit(cpu)] = "c"
	names[h.submit(gpuJob)] = "g"
	return names
}

func countJobs(ls []Launch, names map[JobID]string) map[string]int {
	n := map[string]int{}
	for _, l := range ls {
		n[names[l.Job]]++
	}
	return n
}

// Counting tasks, the GPU pool holds every GPU and half the cores; by
// dominant share it holds what the CPU pool holds of the cores.
func TestDRFGivesTheGPUPoolFewerTasks(t *testing.T) {
	for _, tc := range []struct {
		f          Fairness
		cpu, gpu   int
		wantPrefix string
	}{
		// tasks: one each in turn, names breaking ties.
		{FairTasks, 8, 8, "cgcgcgcg"},
		// drf: a GPU task is 1/8 of the GPUs, a CPU task 1/16 of the
		// cores: two CPU tasks for each GPU one (5/8 against 11/16).
		{FairDRF, 11, 5, "cgccgcc"},
	} {
		h, names := drfHarness(t, tc.f)
		rd := h.ready()
		got := countJobs(rd.Launches, names)
		if got["c"] != tc.cpu || got["g"] != tc.gpu {
			t.Errorf("%v: %v running, want c %d, g %d", tc.f, got, tc.cpu, tc.gpu)
		}
		if order := jobsOf(rd.Launches, names); len(order) < len(tc.wantPrefix) || order[:len(tc.wantPrefix)] != tc.wantPrefix {
			t.Errorf("%v: order %q, want it to start %q", tc.f, order, tc.wantPrefix)
		}
	}
}

// A weight divides the dominant share: the GPU pool at weight 2 takes as
// many tasks as the CPU pool, twice its dominant share.
func TestDRFWeights(t *testing.T) {
	h, names := drfHarness(t, FairDRF, PoolConfig{Name: "gpu", Weight: 2}, PoolConfig{Name: "cpu", Weight: 1})
	got := countJobs(h.ready().Launches, names)
	if got["c"] != 8 || got["g"] != 8 {
		t.Errorf("%v running, want 8 and 8", got)
	}
}

// minShare counts running tasks under drf too: a needy pool comes first
// whatever its dominant share.
func TestDRFMinShareFirst(t *testing.T) {
	h, names := drfHarness(t, FairDRF, PoolConfig{Name: "gpu", Weight: 1, MinShare: 7})
	rd := h.ready()
	if order := jobsOf(rd.Launches, names); order[:7] != "ggggggg" {
		t.Errorf("order %q, want the gpu pool's 7 tasks first", order)
	}
}

// Equal shares as fractions are equal floats, and tie by name.
func TestDRFTies(t *testing.T) {
	third := dominantShare(usage{cpus: 1}, usage{cpus: 3}, 1)
	if sixth := dominantShare(usage{cpus: 2}, usage{cpus: 3}, 2); third != sixth {
		t.Errorf("1/3 per 1 = %v, 2/3 per 2 = %v: want equal", third, sixth)
	}
	if g := dominantShare(usage{gpus: One / 3}, usage{cpus: 9, gpus: One}, 1); g != third {
		t.Errorf("a third of the one GPU: %v, want %v", g, third)
	}
	a := &pool{cfg: PoolConfig{Name: "a", Weight: 1}, drf: true, share: third, running: 5}
	b := &pool{cfg: PoolConfig{Name: "b", Weight: 2}, drf: true, share: third, running: 1}
	if !fairLess(a, b) || fairLess(b, a) {
		t.Error("equal shares: want the name order, a before b, whatever the tasks")
	}
	b.share = third / 2
	if fairLess(a, b) || !fairLess(b, a) {
		t.Error("b's lower share: want b first")
	}
}

// No executors yet: every share is 0, never NaN, and work waits; the
// first executor's totals order the pools.
func TestDRFZeroTotals(t *testing.T) {
	for _, total := range []usage{{}, {cpus: 4}} {
		d := dominantShare(usage{cpus: 2, gpus: One}, total, 1)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			t.Errorf("share of %+v: %v", total, d)
		}
	}
	if d := dominantShare(usage{cpus: 2, gpus: One}, usage{cpus: 4}, 1); d != 0.5 {
		t.Errorf("no GPUs in the session: share %v, want the cpus' 0.5", d)
	}
	h := newHarness(t, Config{Mode: FAIR, Fairness: FairDRF}, Profile{ID: 0, Cores: 8, GPUs: 4})
	cpu := oneStage("c", 4, 1, GPURequest{})
	cpu.Pool = "cpu"
	h.submit(cpu)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched %d with no executor", len(rd.Launches))
	}
	h.exec("e1", "h1", 8)
	if rd := h.ready(); len(rd.Launches) != 4 {
		t.Fatalf("launched %d, want 4", len(rd.Launches))
	}
	if p := h.s.pools["cpu"]; p.share != 0.5 {
		t.Errorf("share %v, want 4 of 8 cores", p.share)
	}
}

// An executor that comes moves every share: the pools are ordered again
// by the new totals, not by the shares they had.
func TestDRFExecutorMovesShares(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Fairness: FairDRF}, Profile{ID: 0, Cores: 8, GPUs: 4})
	h.exec("e1", "h1", 3, "0", "1", "2", "3")
	names := submitCPUAndGPUPools(h)
	if got := jobsOf(h.ready().Launches, names); got != "cgc" {
		t.Fatalf("order %q, want cgc", got)
	}
	// Totals 11 cpus and 5 GPUs: c holds 2/11, g 1/5; c comes first
	// (before, c's 2/3 was above g's 1/3).
	h.exec("e2", "h2", 8, "0")
	if got := jobsOf(h.ready().Launches, names); got[:3] != "cgc" {
		t.Fatalf("order %q, want it to start cgc", got)
	}
	// e2 leaves and its tasks wait again: the totals are e1's, c holds
	// 2/3 again and g 1/3, and g comes first.
	if err := h.s.RemoveExecutor(h.now, "e2", ExecutorLoss{Reason: "gone"}); err != nil {
		t.Fatal(err)
	}
	if c, g := h.s.pools["cpu"].share, h.s.pools["gpu"].share; c != 2.0/3 || g != 1.0/3 {
		t.Errorf("after e2 left: shares c %v, g %v, want 2/3 and 1/3", c, g)
	}
	if got := h.s.Pools(); got[0].Name != "gpu" {
		t.Errorf("pools %+v: want gpu first", got)
	}
}

func TestParseFairness(t *testing.T) {
	for in, want := range map[string]Fairness{"tasks": FairTasks, "DRF": FairDRF, "drf": FairDRF} {
		if got, err := ParseFairness(in); err != nil || got != want {
			t.Errorf("ParseFairness(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseFairness("cpus"); err == nil || err.Error() != `fairness "cpus": want tasks or drf` {
		t.Errorf("err %v", err)
	}
}

// An attempt adopted after an AM restart counts in its pool's share as a
// launched one does, until it ends.
func TestDRFAdoptedAttemptsCount(t *testing.T) {
	h := newHarness(t, Config{Mode: FAIR, Fairness: FairDRF}, Profile{ID: 0, Cores: 4, GPUs: 2})
	h.exec("e1", "h1", 4, "0", "1")
	gpuJob := oneStage("g", 4, 1, WholeGPUs(1))
	gpuJob.Pool = "gpu"
	h.submit(gpuJob)
	h.adopt("e1", attempt(0, 2, 0), "1")
	if g := h.s.pools["gpu"].share; g != 0.5 {
		t.Fatalf("gpu pool's share %v, want the adopted attempt's half of the GPUs", g)
	}
	h.finish(attempt(0, 2, 0), TaskResult{Outcome: Succeeded})
	if g := h.s.pools["gpu"].share; g != 0 {
		t.Fatalf("gpu pool's share %v after its one attempt ended, want 0", g)
	}
}

// Accelerators weigh as GPUs do: a pool holding one of the session's two
// FPGAs has a dominant share of a half, whatever its few cores; an
// executor leaving takes its FPGAs out of the totals again.
func TestDRFWeighsAccelerators(t *testing.T) {
	fpga, err := NewAccelerators(map[string]int{"fpga": 1})
	if err != nil {
		t.Fatal(err)
	}
	exec := ExecutorSpec{Cores: 8, Accels: []Assigned{{Name: "fpga", Addresses: []string{"0", "1"}}}}
	var total, used usage
	total.add(executorCapacity(exec), 1)
	total.add(executorCapacity(exec), 1)
	used.add(taskUsage(TaskRequest{CPUs: 1, Accels: fpga}), 1)
	if got := dominantShare(used, total, 1); got != 0.25 {
		t.Errorf("1 of 4 FPGAs, 1 of 16 cores: share %v, want 0.25", got)
	}
	if got := dominantShare(used, total, 2); got != 0.125 {
		t.Errorf("at weight 2: share %v, want 0.125", got)
	}
	total.add(executorCapacity(exec), -1)
	if got := dominantShare(used, total, 1); got != 0.5 {
		t.Errorf("an executor gone, 1 of 2 FPGAs: share %v, want 0.5", got)
	}
	used.add(taskUsage(TaskRequest{CPUs: 1, Accels: fpga}), -1)
	if got := dominantShare(used, total, 1); got != 0 {
		t.Errorf("the task ended: share %v, want 0", got)
	}
}
