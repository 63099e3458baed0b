package sim

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

const smallTrace = `submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after
0,a,prep,8,2,1,0,,
0,a,train,16,10,1,0.5,,prep
30,b,infer,40,3,1,0.25,,
400,c,infer,40,3,1,0.25,,
`

// simCore is the core's configuration of a simulation of executors
// shaped p: static ones kept, or, with alloc, dynamic allocation.
func simCore(sched scheduler.Config, p scheduler.Profile, static int, alloc *dynalloc.Config) core.Config {
	return core.Config{Scheduler: sched, Profiles: []scheduler.Profile{p}, Allocation: alloc,
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{p.ID: static}}}
}

func options(policy dynalloc.Policy, dynamic bool) Options {
	var alloc *dynalloc.Config
	if dynamic {
		alloc = &dynalloc.Config{Policy: policy, MaxExecutors: 8, AllocationRatio: 1,
			IdleTimeout: 60 * time.Second, BacklogTimeout: time.Second, SustainedBacklogTimeout: time.Second,
			WarmPoolSize: 1, WarmPoolIdleTimeout: 60 * time.Second, SurplusIdleTimeout: 15 * time.Second, RampDownDelay: 5 * time.Second}
	}
	return Options{
		Core:       simCore(scheduler.Config{}, scheduler.Profile{ID: 0, Cores: 4, GPUs: 2}, 8, alloc),
		AllocDelay: 2 * time.Second, StartupDelay: 5 * time.Second, Capacity: 16,
	}
}

func mustRun(t *testing.T, opts Options) Result {
	t.Helper()
	jobs, err := ParseTrace(strings.NewReader(smallTrace), "small.csv")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunCompletesEveryJobUnderEachPolicy(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"spark", options(dynalloc.PolicySpark, true)}, {"spindle", options(dynalloc.PolicySpindle, true)}, {"static", options(0, false)}} {
		res := mustRun(t, c.opts)
		if res.Jobs != 3 || res.FailedJobs != 0 || res.Tasks != 104 {
			t.Errorf("%s: %+v, want 3 jobs and 104 tasks", c.name, res)
		}
		if res.MakespanS < 400 || res.PeakExecutors == 0 || res.ExecutorSeconds <= res.IdleExecutorSeconds {
			t.Errorf("%s: implausible %+v", c.name, res)
		}
		t.Logf("%s: %+v", c.name, res)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	a, _ := json.Marshal(mustRun(t, options(dynalloc.PolicySpindle, true)))
	b, _ := json.Marshal(mustRun(t, options(dynalloc.PolicySpindle, true)))
	if string(a) != string(b) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
}

func TestBadTraceRowsNameLineAndColumn(t *testing.T) {
	for _, c := range []struct{ trace, want string }{
		{"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,x,1,1,0\n", `t.csv:2:7: tasks "x": not a whole number`},
		{"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,1,1,-1\n", `t.csv:2:13: gpus "-1": cannot be negative`},
		{"submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after\n0,a,s,1,1,1,0,,nope\n", `t.csv:2:16: after "nope": no earlier stage`},
		{"submit_s,job,stage,tasks\n", `t.csv:1: header has 4 columns`},
		{"submit,job\n", `t.csv:1:1: header column "submit"`},
		{"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,1,1\n", `t.csv:2: 6 fields, want 7`},
		{"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,0,1,0\n", `task_s "0": a task takes some time`},
	} {
		_, err := ParseTrace(strings.NewReader(c.trace), "t.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("trace %q: err = %v, want %q", c.trace, err, c.want)
		}
	}
}

func TestUnfinishableTraceEndsAtTheHorizon(t *testing.T) {
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,1,1,0\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	opts := options(dynalloc.PolicySpark, true)
	opts.Capacity = 0
	opts.Core.Allocation.MaxExecutors = 1
	opts.AllocDelay = 48 * time.Hour // no container ever comes in time
	opts.Horizon = time.Hour
	_, err = Run(jobs, opts)
	if err == nil || !strings.Contains(err.Error(), "horizon, 1h0m0s after the last submission, with 1 of 1 jobs unfinished") {
		t.Fatalf("err = %v", err)
	}
}

// The horizon counts from the last submission: a trace whose submissions
// span longer than the horizon still runs to its end.
func TestHorizonCountsFromTheLastSubmission(t *testing.T) {
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,10,1,0\n864000,b,s,1,10,1,0\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	opts := options(0, false)
	opts.Horizon = time.Hour
	res, err := Run(jobs, opts)
	if err != nil || res.Jobs != 2 || res.MakespanS < 864000 {
		t.Fatalf("jobs 10 days apart, a 1h horizon: %+v, %v", res, err)
	}
}

// In fine mode the simulator shapes every executor after the trace's
// tasks, as the AM shapes them after its job's: a trace whose tasks differ
// in shape is refused, naming both lines, rather than simulated as the AM
// never runs.
func TestFineModeTakesTheTracesOneTaskShape(t *testing.T) {
	fine := func(trace string) (Result, error) {
		jobs, err := ParseTrace(strings.NewReader(trace), "t.csv")
		if err != nil {
			t.Fatal(err)
		}
		opts := options(dynalloc.PolicySpindle, true)
		opts.Core.OneTaskPerExecutor = true
		return Run(jobs, opts)
	}
	res, err := fine("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,6,10,2,0.5\n5,b,s,4,10,2,1\n")
	if err != nil || res.ContainerRequests != 10 || res.Tasks != 10 {
		t.Fatalf("tasks of 2 cpus and 1 GPU: %+v, %v; want a container per task", res, err)
	}
	for _, trace := range []string{"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,6,10,2,1\n5,b,s,4,10,1,1\n",
		"submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,6,10,2,1\n5,b,s,4,10,2,2\n"} {
		if _, err := fine(trace); err == nil || !strings.Contains(err.Error(), "line 3: stage \"s\"") || !strings.Contains(err.Error(), "line 2's 2 and 1") {
			t.Errorf("tasks of two shapes: err = %v, want both lines named", err)
		}
	}
}
