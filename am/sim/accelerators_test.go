package sim

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Simulated executors have their profile's accelerators, so a trace run
// with tasks that each take an FPGA ends: two FPGAs an executor hold two
// of its four tasks at once, which the makespan shows.
func TestRunGivesExecutorsTheirAccelerators(t *testing.T) {
	fpgas := func(n int) scheduler.Accelerators {
		a, err := scheduler.NewAccelerators(map[string]int{"fpga": n})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,4,10,1,0\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	opts := options(0, false)
	opts.Core.Profiles[0].Accels = fpgas(2)
	opts.Core.TaskAccels = fpgas(1)
	opts.Core.Containers.Initial = map[scheduler.ProfileID]int{0: 1}
	res, err := Run(jobs, opts)
	if err != nil || res.Jobs != 1 || res.FailedJobs != 0 || res.Tasks != 4 {
		t.Fatalf("%+v, %v; want the job's 4 tasks run", res, err)
	}
	if res.MakespanS < 20 || res.MakespanS >= 30 {
		t.Errorf("makespan %.1fs: want two rounds of 10s tasks, 2 FPGAs for 4 tasks on 4 cores", res.MakespanS)
	}
}
