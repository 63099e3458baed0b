package deploy

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/sim"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// A trace job, scaled, becomes a spec the session accepts: its stages,
// their order and resources, its pool when it names one, each task a
// sleep of its task_s divided by the time scale.
func TestTraceJobSpecSleepsScaledTaskTimes(t *testing.T) {
	trace := "submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after\n" +
		"0,a,prep,2,5,1,0,,\n0,a,train,4,30,2,0.5,,prep\n" +
		"7,b,s,1,1,1,1,prod,\n"
	jobs, err := sim.ParseTrace(strings.NewReader(trace), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if jobs, err = sim.ScaleTrace(jobs, 10); err != nil {
		t.Fatal(err)
	}
	if jobs[1].SubmitS != 0.7 {
		t.Errorf("submit_s 7 at scale 10: %v, want 0.7", jobs[1].SubmitS)
	}
	var got []*jobspec.Job
	for _, j := range jobs {
		spec, err := traceJobSpec(j)
		if err != nil {
			t.Fatal(err)
		}
		job, err := jobspec.Parse(spec, "spec", jobspec.Defaults{Pool: "session-default"})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		got = append(got, job)
	}
	want := []*jobspec.Job{
		{Name: "a", Pool: "session-default", Source: "spec", Stages: []jobspec.Stage{
			{Name: "prep", Tasks: 2, Command: []string{"sleep", "0.5"}, CPUs: 1, Line: 1},
			{Name: "train", Tasks: 4, Command: []string{"sleep", "3"}, CPUs: 2, GPUs: 0.5, After: []string{"prep"}, Line: 1},
		}},
		{Name: "b", Pool: "prod", Source: "spec", Stages: []jobspec.Stage{{Name: "s", Tasks: 1, Command: []string{"sleep", "0.1"}, CPUs: 1, GPUs: 1, Line: 1}}},
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("job %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// The summary is spindle sim's Result, as measured: makespan to the last
// end, job times from submission to end, the trace's tasks, executor
// seconds as the session's grew over the replay, its peak.
func TestReplaySummaryIsWhatWasMeasured(t *testing.T) {
	ran := []replayed{
		{name: "a", tasks: 3, submitted: 0, ended: 2 * time.Second},
		{name: "b", tasks: 1, submitted: time.Second, ended: 1500 * time.Millisecond},
		{name: "c", tasks: 2, submitted: time.Second, ended: 5 * time.Second, failure: "FAILED: exit 1"},
	}
	before := &wire.Stats{ExecutorSeconds: 100, IdleExecutorSeconds: 90, PeakExecutors: 2, ContainerRequests: 4}
	after := &wire.Stats{ExecutorSeconds: 110.5, IdleExecutorSeconds: 95.25, PeakExecutors: 3, ContainerRequests: 6}
	got := replaySummary(ran, before, after)
	want := sim.Result{Policy: "replay", MakespanS: 5, ExecutorSeconds: 10.5, IdleExecutorSeconds: 5.25, PeakExecutors: 3, ContainerRequests: 2,
		MeanJobS: (2 + 0.5 + 4) / 3.0, P95JobS: 4, Jobs: 3, FailedJobs: 1, Tasks: 6}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}

	var out bytes.Buffer
	printSimResult(&out, "replay                 session local-1, time scale 10", got)
	for _, line := range []string{"replay                 session local-1, time scale 10", "makespan               5.0 s", "executor seconds       10",
		"idle executor seconds  5", "peak executors         3", "container requests     2", "jobs                   3 (1 failed), mean 2.2 s, p95 4.0 s", "tasks                  6"} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("no line %q in\n%s", line, out.String())
		}
	}
	// --json has sim's keys: it is sim's Result.
	simJSON, _ := json.Marshal(sim.Result{})
	replayJSON, _ := json.Marshal(got)
	if keys(t, simJSON) != keys(t, replayJSON) {
		t.Errorf("replay's keys %s, sim's %s", keys(t, replayJSON), keys(t, simJSON))
	}
}

func keys(t *testing.T, b []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ",")
}

// A time scale must speed the trace up or slow it down, never stop it or
// run it backwards, nor slow it past what a wait can be; flags after the
// trace are not read, and said so.
func TestReplayRefusesBadArguments(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n3600,a,s,1,1,1,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--time-scale", "0", trace}, "--time-scale: time scale 0: want a number above 0"},
		{[]string{"--time-scale", "-2", trace}, "--time-scale: time scale -2: want a number above 0"},
		{[]string{"--time-scale", "NaN", trace}, "--time-scale: time scale NaN: want a number above 0"},
		{[]string{trace, "--time-scale", "10"}, "--time-scale comes after the trace"},
		{[]string{"--time-scale", "1e-12", trace}, `job "a": submitted at 3.6e+15 s (at --time-scale 1e-12): the replay waits at most`},
	} {
		out, err := run(t, append([]string{"replay", "--session", "local-x"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q\n%s", c.args, err, c.want, out)
		}
	}
}
