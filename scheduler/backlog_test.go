package scheduler

import (
	"fmt"
	"testing"
	"time"
)

// backlogJobs is how many single-task jobs queue behind a full cluster.
const backlogJobs = 1000

// countTries makes h's scheduler count the stages it looks for an
// executor for.
func countTries(h *harness) *int {
	tries := 0
	find := h.s.pickExecutor
	h.s.pickExecutor = func(now time.Time, st *stage) *executor {
		tries++
		return find(now, st)
	}
	return &tries
}

// passedOver makes h's scheduler record, when a round ends, how many
// stages and pools its last choice passed over: FIFO's cursor, and what
// FAIR's ranks set aside.
func passedOver(h *harness) *int {
	n := 0
	pick := h.s.pickStage
	h.s.pickStage = func() *stage {
		st := pick()
		if st == nil {
			n = h.s.root.next + len(h.s.fair.aside)
			for _, p := range h.s.setAside {
				n += len(p.stages.aside)
			}
		}
		return st
	}
	return &n
}

// A backlog that cannot run is not tried stage by stage after every task
// that ends: once one stage finds no executor, the stages asking the same
// are not tried again in that round, and the round ends without walking
// the rest of the queue. Each round costs what it places, not the length
// of the queue (a trace of 10,000 jobs was quadratic).
func TestBacklogIsNotTriedStageByStage(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		pool func(i int) string
	}{
		{"FIFO", Config{}, func(int) string { return "" }},
		{"FAIR, a pool per job", Config{Mode: FAIR}, func(i int) string { return fmt.Sprintf("p%04d", i) }},
		{"FAIR, one FAIR pool", Config{Mode: FAIR, Pools: []PoolConfig{{Name: "shared", Mode: FAIR, Weight: 1}}}, func(int) string { return "shared" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.cfg)
			h.exec("e1", "h1", 1)
			for i := range backlogJobs {
				spec := oneStage(fmt.Sprintf("j%04d", i), 1, 1, GPURequest{})
				spec.Pool = c.pool(i)
				h.submit(spec)
			}
			tries, passed := countTries(h), passedOver(h)
			rd := h.ready()
			for range 3 {
				if len(rd.Launches) != 1 || *tries != 2 {
					t.Fatalf("%d launches after looking for executors for %d stages; want 1 after 2 (it, then one that finds no room)", len(rd.Launches), *tries)
				}
				if *passed > 2 {
					t.Fatalf("the round ended after passing over %d stages or pools, want at most 2", *passed)
				}
				*tries = 0
				h.succeed(rd.Launches[0])
				rd = h.ready()
			}
			if msg := checkInternal(h.s); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

// A stage asking something else is still found behind a blocked backlog:
// GPU stages wait for the one GPU while a CPU stage submitted after them
// takes a free core.
func TestBlockedClassDoesNotHideOthers(t *testing.T) {
	h := newHarness(t, Config{})
	h.exec("e1", "h1", 4, "0")
	for i := range backlogJobs {
		h.submit(oneStage(fmt.Sprintf("gpu%04d", i), 1, 1, WholeGPUs(1)))
	}
	cpu := h.submit(oneStage("cpu", 1, 1, GPURequest{}))
	tries := countTries(h)
	rd := h.ready()
	if len(rd.Launches) != 2 || rd.Launches[1].Job != cpu || *tries != 3 {
		t.Fatalf("launches %s after %d tries; want a GPU task and the CPU job's after 3", fmtLaunches(rd.Launches), *tries)
	}
}
