package sim

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// A pool's mean dominant share counts only while it has tasks waiting,
// and is 0, not NaN, while no executor has registered.
func TestPoolShareWhileBacklogged(t *testing.T) {
	ps := newPools()
	ps.submitted("", 7, []scheduler.StageID{3}, []StageRow{{Tasks: 2, TaskS: 10, CPUs: 1, GPUs: 1}})
	ps.elapse(time.Second) // no executors: share 0
	ps.cores, ps.gpus = 4, 2
	ps.started(3)
	ps.elapse(2 * time.Second) // max(1/4 cores, 1/2 GPUs)
	ps.started(3)
	ps.elapse(5 * time.Second) // nothing waits: not counted
	ps.ended(3)
	ps.jobEnded(7, 12*time.Second)
	got := ps.results()
	want := PoolResult{Name: "default", Tasks: 2, CPUSeconds: 20, GPUSeconds: 20, MeanDominantShare: 0.333, BackloggedS: 3, MeanJobS: 12}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("pools %+v, want %+v", got, want)
	}
}
