package sim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Under dynamic allocation executors come and go while the pool waits:
// its figures, pinned here, move if the run's totals miss one (an
// executor's cores left counted once it is released makes the share
// 0.479, not 0.519).
func TestPoolFiguresUnderDynamicAllocation(t *testing.T) {
	res := mustRun(t, options(dynalloc.PolicySpindle, true))
	want := []PoolResult{{Name: "default", Tasks: 104, CPUSeconds: 416, GPUSeconds: 140, MeanDominantShare: 0.519, BackloggedS: 37.4, MeanJobS: 17.8}}
	if !reflect.DeepEqual(res.Pools, want) {
		t.Errorf("pools %+v\nwant %+v", res.Pools, want)
	}
}

// The same where GPUs are the scarce resource: tasks of a whole GPU on
// executors of 4 cores and 2 GPUs, the second job submitted once the
// first one's executors have gone (their GPUs left counted would make
// the share 0.515, not 0.687).
func TestPoolFiguresWhenGPUsDominate(t *testing.T) {
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus,pool\n0,a,s,40,10,1,1,gpu\n300,b,s,40,10,1,1,gpu\n"), "gpu.csv")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(jobs, options(dynalloc.PolicySpindle, true))
	if err != nil {
		t.Fatal(err)
	}
	want := []PoolResult{{Name: "gpu", Tasks: 80, CPUSeconds: 800, GPUSeconds: 800, MeanDominantShare: 0.687, BackloggedS: 58.2, MeanJobS: 39.1}}
	if !reflect.DeepEqual(res.Pools, want) {
		t.Errorf("pools %+v\nwant %+v", res.Pools, want)
	}
}
