package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// (c) Under saturation FAIR shares converge to the weights: pools of weight
// 1, 2, 3 with endless pending work on a fixed set of executors. The
// heaviest pool starts with every slot; as random tasks finish, the slots
// move until running tasks are 10/20/30 of 60, and stay there (within one
// task) however the finishing order falls.
func TestPropertyFairConvergence(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pools []PoolConfig
		want  []int // running per pool at equilibrium, of 60 slots
		req   func(t *testing.T) TaskRequest
	}{
		{"weights 1:2:3", []PoolConfig{{Name: "p1", Weight: 1}, {Name: "p2", Weight: 2}, {Name: "p3", Weight: 3}}, []int{10, 20, 30},
			func(*testing.T) TaskRequest { return TaskRequest{CPUs: 1} }},
		{"minShare first", []PoolConfig{{Name: "p1", Weight: 1, MinShare: 30}, {Name: "p2", Weight: 1}, {Name: "p3", Weight: 1}}, []int{30, 15, 15},
			func(*testing.T) TaskRequest { return TaskRequest{CPUs: 1} }},
		{"FAIR pools, GPU fractions", []PoolConfig{{Name: "p1", Weight: 1, Mode: FAIR}, {Name: "p2", Weight: 2, Mode: FAIR}, {Name: "p3", Weight: 3, Mode: FAIR}}, []int{10, 20, 30},
			func(t *testing.T) TaskRequest { return TaskRequest{CPUs: 1, GPU: gpu(t, 1.0/3)} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(seedsFor(5)) {
				fairConvergence(t, seed, tc.pools, tc.want, tc.req(t))
			}
		})
	}
}

func fairConvergence(t *testing.T, seed uint64, pools []PoolConfig, want []int, req TaskRequest) {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := newHarness(t, Config{Mode: FAIR, Pools: pools}, Profile{ID: 0, Cores: 6, GPUs: 2})
	for i := range 10 {
		h.exec(fmt.Sprintf("e%d", i), fmt.Sprintf("h%d", i), 6, "0", "1")
	}
	const tasks = 20000
	pool := map[JobID]int{}
	var running []Launch
	submit := func(i int) {
		j := h.submit(JobSpec{Name: pools[i].Name, Pool: pools[i].Name, Stages: []StageSpec{{Name: "s", Tasks: tasks, Request: req}}})
		pool[j] = i
		// A second job in the pool: FAIR pools share between them.
		j = h.submit(JobSpec{Name: pools[i].Name + "'", Pool: pools[i].Name, Stages: []StageSpec{{Name: "s", Tasks: tasks, Request: req}}})
		pool[j] = i
	}
	submit(len(pools) - 1)
	running = append(running, h.ready().Launches...)
	for i := range len(pools) - 1 {
		submit(i)
	}
	perPool := func() []int {
		n := make([]int, len(pools))
		for _, l := range running {
			n[pool[l.Job]]++
		}
		return n
	}
	if n := perPool(); n[len(pools)-1] != 60 {
		t.Fatalf("the first pool holds %v, want all 60 slots", n)
	}
	const cycles, settle = 3000, 300
	sums := make([]int, len(pools))
	for c := range cycles {
		// One to three random tasks end; an occasional failure.
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(running))
			r := TaskResult{Outcome: Succeeded}
			if rng.IntN(10) == 0 {
				r = TaskResult{Outcome: Failed, Reason: "flaky", Blameless: true}
			}
			h.finish(running[i].Attempt, r)
			running[i] = running[len(running)-1]
			running = running[:len(running)-1]
		}
		rd := h.ready()
		running = append(running, rd.Launches...)
		n := perPool()
		if len(running) != 60 {
			t.Fatalf("cycle %d: %d running, want the 60 slots full", c, len(running))
		}
		for i, p := range pools {
			got, _ := h.s.PoolProgress(p.Name)
			if got.Running != n[i] {
				t.Fatalf("pool %s: progress says %d running, launches %d", p.Name, got.Running, n[i])
			}
		}
		if c < settle {
			continue
		}
		for i := range pools {
			sums[i] += n[i]
			// One to three slots free up between Readys, and each goes to
			// the neediest pool: no pool strays further than that.
			if d := n[i] - want[i]; d > 3 || d < -3 {
				t.Fatalf("seed %d cycle %d: running %v, want %v", seed, c, n, want)
			}
		}
	}
	for i := range pools {
		mean := float64(sums[i]) / float64(cycles-settle)
		if d := mean - float64(want[i]); d > 0.5 || d < -0.5 {
			t.Fatalf("seed %d: pool %s averaged %.2f running, want %d", seed, pools[i].Name, mean, want[i])
		}
	}
}
