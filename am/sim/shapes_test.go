package sim

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// As a session's AM does, the simulator gives a stage its executors
// cannot hold a stage shape of its own, whose executors offer what the
// shape has (8 cores where the default has 4); a shape of more GPUs than
// a simulated node has (a node per default executor) is refused.
func TestRunGivesAStageItsOwnShape(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"spindle", options(dynalloc.PolicySpindle, true)}, {"static", options(0, false)}} {
		jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,narrow,2,1,1,0\n0,w,wide,4,2,8,0\n"), "t.csv")
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(jobs, c.opts)
		if err != nil || res.Jobs != 2 || res.FailedJobs != 0 || res.Tasks != 6 {
			t.Errorf("%s: %+v, %v; want both jobs run, 6 tasks", c.name, res, err)
		}
	}
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,g,s,1,1,1,3\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(jobs, options(0, false))
	if err == nil || !strings.Contains(err.Error(), `stage "s": its executors would need 3 GPUs, more than the cluster's maximum allocation (2)`) {
		t.Errorf("a stage of 3 GPUs on nodes of 2: %v", err)
	}
}
