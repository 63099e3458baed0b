package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// benchShapes are the workloads whose cost must grow near-linearly with
// the number of jobs. Each writes the trace of n jobs and the options it
// runs under; docs/benchmarks.md generates the same traces with awk for
// the binary's figures.
var benchShapes = []struct {
	name  string
	trace func(n int) string
	opts  func() Options
}{
	// A job every 2s, one stage of 4 tasks of 10s, on 2 static executors
	// of 1 core: the queue of waiting stages grows to most of the trace.
	{"backlog", func(n int) string {
		return synthesize(n, func(i int) string { return fmt.Sprintf("%d,j%05d,s,4,10,1,0,,\n", 2*i, i) })
	}, func() Options {
		return Options{Core: simCore(scheduler.Config{}, scheduler.Profile{Cores: 1}, 2, nil), AllocDelay: 2 * time.Second, StartupDelay: 5 * time.Second}
	}},
	// The same under FAIR with every job in a pool of its own.
	{"pools", func(n int) string {
		return synthesize(n, func(i int) string { return fmt.Sprintf("%d,j%05d,s,4,10,1,0,p%05d,\n", 2*i, i, i) })
	}, func() Options {
		return Options{Core: simCore(scheduler.Config{Mode: scheduler.FAIR}, scheduler.Profile{Cores: 1}, 2, nil),
			AllocDelay: 2 * time.Second, StartupDelay: 5 * time.Second}
	}},
	// The same in one pool whose own mode is FAIR: its stages are ordered
	// by their running tasks.
	{"fair-pool", func(n int) string {
		return synthesize(n, func(i int) string { return fmt.Sprintf("%d,j%05d,s,4,10,1,0,shared,\n", 2*i, i) })
	}, func() Options {
		sched := scheduler.Config{Mode: scheduler.FAIR, Pools: []scheduler.PoolConfig{{Name: "shared", Mode: scheduler.FAIR, Weight: 1}}}
		return Options{Core: simCore(sched, scheduler.Profile{Cores: 1}, 2, nil), AllocDelay: 2 * time.Second, StartupDelay: 5 * time.Second}
	}},
	// A job every 10s, a CPU stage then a stage of whole-GPU tasks, on 2
	// static executors of 8 cores and 4 GPUs: GPUs run out while cores are
	// free, and the GPU stages queue up behind them.
	{"gpu-bound", func(n int) string {
		return synthesize(n, func(i int) string {
			return fmt.Sprintf("%d,j%05d,prep,2,5,1,0,,\n%d,j%05d,train,4,30,1,1,,prep\n", 10*i, i, 10*i, i)
		})
	}, func() Options {
		return Options{Core: simCore(scheduler.Config{}, scheduler.Profile{Cores: 8, GPUs: 4}, 2, nil), AllocDelay: 2 * time.Second, StartupDelay: 5 * time.Second}
	}},
	// Bursts of 10 jobs every 60s, each a CPU stage then a stage of
	// quarter-GPU tasks after it, in 4 FAIR pools, under dynamic
	// allocation up to 32 executors of 8 cores and 4 GPUs.
	{"gpu-dag", func(n int) string {
		return synthesize(n, func(i int) string {
			at, pool := 60*(i/10), fmt.Sprintf("p%d", i%4)
			return fmt.Sprintf("%d,j%05d,prep,8,5,1,0,%s,\n%d,j%05d,infer,32,20,1,0.25,%s,prep\n", at, i, pool, at, i, pool)
		})
	}, func() Options {
		o := options(dynalloc.PolicySpindle, true)
		o.Core.Scheduler.Mode = scheduler.FAIR
		o.Core.Profiles = []scheduler.Profile{{Cores: 8, GPUs: 4}}
		o.Core.Allocation.MaxExecutors, o.Capacity = 32, 32
		return o
	}},
}

func synthesize(n int, rows func(i int) string) string {
	var b strings.Builder
	b.WriteString("submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after\n")
	for i := range n {
		b.WriteString(rows(i))
	}
	return b.String()
}

// BenchmarkSim runs each shape at 1k, 3k and 10k jobs: per-job time should
// stay flat as the trace grows.
func BenchmarkSim(b *testing.B) {
	for _, shape := range benchShapes {
		for _, n := range []int{1_000, 3_000, 10_000} {
			b.Run(fmt.Sprintf("%s/jobs=%d", shape.name, n), func(b *testing.B) {
				jobs, err := ParseTrace(strings.NewReader(shape.trace(n)), shape.name+".csv")
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					res, err := Run(jobs, shape.opts())
					if err != nil {
						b.Fatal(err)
					}
					if res.Jobs != n {
						b.Fatalf("%d jobs finished, want %d", res.Jobs, n)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/job")
			})
		}
	}
}
