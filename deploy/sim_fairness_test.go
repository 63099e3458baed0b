package deploy

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/sim"
)

// simPools runs examples/sim/mixed-pools.csv (a CPU-only pool, etl, and a
// pool whose tasks each hold a whole GPU, train) under fairness, and
// returns its result.
func simPools(t *testing.T, fairness string) sim.Result {
	t.Helper()
	args := []string{"sim", "--trace", "../examples/sim/mixed-pools.csv", "--properties-file", "../examples/sim/mixed-pools.conf",
		"--conf", "spindle.scheduler.fairness=" + fairness, "--json"}
	out, err := run(t, args...)
	if err != nil {
		t.Fatalf("spindle %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var res sim.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not one JSON result: %v\n%s", err, out)
	}
	if res.Fairness != fairness || len(res.Pools) != 2 || res.Pools[0].Name != "etl" || res.Pools[1].Name != "train" {
		t.Fatalf("fairness %q, pools %+v: want %s, etl and train", res.Fairness, res.Pools, fairness)
	}
	return res
}

// Counting tasks, the GPU pool holds nearly all of the GPUs while it
// waits, the CPU pool little more than half the cores; by dominant share
// the two hold about as much of what each needs most. The work is the
// same either way: only who got the cluster when moves.
func TestSimFairnessSharesByDominantResource(t *testing.T) {
	tasks, drf := simPools(t, "tasks"), simPools(t, "drf")
	etl, train := 0, 1
	if gap := tasks.Pools[train].MeanDominantShare - tasks.Pools[etl].MeanDominantShare; gap < 0.3 {
		t.Errorf("tasks: train's share %.3f, etl's %.3f: want train's above by 0.3 or more", tasks.Pools[train].MeanDominantShare, tasks.Pools[etl].MeanDominantShare)
	}
	if gap := math.Abs(drf.Pools[train].MeanDominantShare - drf.Pools[etl].MeanDominantShare); gap > 0.15 {
		t.Errorf("drf: train's share %.3f, etl's %.3f: want within 0.15", drf.Pools[train].MeanDominantShare, drf.Pools[etl].MeanDominantShare)
	}
	if drf.Pools[etl].MeanJobS >= tasks.Pools[etl].MeanJobS || drf.Pools[train].MeanJobS <= tasks.Pools[train].MeanJobS {
		t.Errorf("mean job: etl %.1f s under drf, %.1f s under tasks; train %.1f s, %.1f s: want etl's faster and train's slower under drf",
			drf.Pools[etl].MeanJobS, tasks.Pools[etl].MeanJobS, drf.Pools[train].MeanJobS, tasks.Pools[train].MeanJobS)
	}
	for i := range tasks.Pools {
		a, b := tasks.Pools[i], drf.Pools[i]
		if a.Tasks != b.Tasks || a.CPUSeconds != b.CPUSeconds || a.GPUSeconds != b.GPUSeconds {
			t.Errorf("pool %s: %+v under tasks, %+v under drf: want the same work", a.Name, a, b)
		}
	}
	if tasks.Pools[train].GPUSeconds != 192*60 || tasks.Pools[etl].GPUSeconds != 0 || tasks.Pools[etl].CPUSeconds != 6*(120*20+40*10) {
		t.Errorf("pools %+v: want train's 192 tasks of 60 GPU-seconds, etl's none", tasks.Pools)
	}
}

// The text output has a line per pool, under the fairness.
func TestSimPrintsPools(t *testing.T) {
	out, err := run(t, "sim", "--trace", "../examples/sim/mixed-pools.csv", "--properties-file", "../examples/sim/mixed-pools.conf", "--conf", "spindle.scheduler.fairness=drf")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"fairness               drf\n", "\netl                       960        16800            0", "\ntrain                     192        11520        11520"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
