package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	app := NewApp()
	app.Writer, app.ErrWriter = &out, &out
	err := app.Run(append([]string{"spindle"}, args...))
	return out.String(), err
}

func simArgs(policy string) []string {
	return []string{"sim", "--trace", "../examples/sim/bursty.csv", "--properties-file", "../examples/sim/gpu-cluster.conf",
		"--conf", "spindle.dynamicAllocation.policy=" + policy, "--capacity", "32", "--json"}
}

func simResult(t *testing.T, args ...string) map[string]float64 {
	t.Helper()
	out, err := run(t, args...)
	if err != nil {
		t.Fatalf("spindle %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	nums := map[string]float64{}
	for k, v := range res {
		if f, ok := v.(float64); ok {
			nums[k] = f
		}
	}
	return nums
}

func TestSimJSONHasEveryMetricAndIsByteIdentical(t *testing.T) {
	a, err := run(t, simArgs("spindle")...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := run(t, simArgs("spindle")...)
	if a != b {
		t.Fatalf("two runs of the same input differ:\n%s\n%s", a, b)
	}
	res := simResult(t, simArgs("spindle")...)
	for _, k := range []string{"makespan_s", "executor_seconds", "idle_executor_seconds", "peak_executors", "container_requests", "mean_job_s", "p95_job_s", "tasks"} {
		if _, ok := res[k]; !ok {
			t.Errorf("--json output lacks %q: %s", k, a)
		}
	}
	if res["tasks"] != 3560 {
		t.Errorf("tasks = %v, want the trace's 3560", res["tasks"])
	}
}

// The default policy's promise on bursty GPU work, held to the committed
// trace: at most 0.7× Spark's idle executor-seconds, makespan within 1.05×.
func TestDefaultPolicyBeatsSparkOnBurstyGPUWork(t *testing.T) {
	spindle := simResult(t, simArgs("spindle")...)
	spark := simResult(t, simArgs("spark")...)
	if r := spindle["idle_executor_seconds"] / spark["idle_executor_seconds"]; r > 0.7 {
		t.Errorf("idle executor-seconds %.0f vs Spark's %.0f: ratio %.2f, want <= 0.7", spindle["idle_executor_seconds"], spark["idle_executor_seconds"], r)
	}
	if r := spindle["makespan_s"] / spark["makespan_s"]; r > 1.05 {
		t.Errorf("makespan %.0f vs Spark's %.0f: ratio %.3f, want <= 1.05", spindle["makespan_s"], spark["makespan_s"], r)
	}
}

func TestSimRejectsBadInputNamingWhere(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,4,1,1,0\n5,b,s,x,1,1,0\n"), 0o644)
	if out, err := run(t, "sim", "--trace", bad); err == nil || !strings.Contains(err.Error(), "bad.csv:3:7: tasks \"x\"") {
		t.Errorf("bad row: err = %v\n%s", err, out)
	}
	if _, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--conf", "spindle.dynamicAllocation.enabled=true",
		"--conf", "spindle.dynamicAllocation.executorAllocationRatio=1.5"); err == nil || !strings.Contains(err.Error(), "spindle.dynamicAllocation.executorAllocationRatio") {
		t.Errorf("bad ratio: err = %v, want one naming the key", err)
	}
	if _, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--conf", "spindle.dynamicAllocation.maxExecutor=3"); err == nil || !strings.Contains(err.Error(), "maxExecutors") {
		t.Errorf("unknown key: err = %v, want a did-you-mean", err)
	}
}

// Spark's spelling of a key reaches the simulation as Spindle's does.
func TestSimAcceptsSparkAliases(t *testing.T) {
	res := simResult(t, "sim", "--trace", "../examples/sim/bursty.csv", "--properties-file", "../examples/sim/gpu-cluster.conf",
		"--conf", "spark.dynamicAllocation.maxExecutors=3", "--json")
	if res["peak_executors"] > 3 {
		t.Fatalf("peak executors %v with spark.dynamicAllocation.maxExecutors=3", res["peak_executors"])
	}
}

// A --conf value keeps its commas: they are not flag separators.
func TestConfValuesKeepTheirCommas(t *testing.T) {
	_, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--properties-file", "../examples/sim/gpu-cluster.conf",
		"--conf", "spindle.worker.resource.gpu.addresses=0,1,2,3", "--json")
	if err != nil {
		t.Fatalf("a comma in a --conf value broke it: %v", err)
	}
}

// Times and counts that would overflow or run without bound are refused
// naming the flag or key; at the bound they are accepted (and a delay of
// a century then runs into the simulation's horizon, as it should).
func TestSimBoundsNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "cpu.csv")
	os.WriteFile(trace, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,4,1,1,0\n"), 0o644)
	for _, flag := range []string{"--alloc-delay", "--startup-delay"} {
		_, err := run(t, "sim", "--trace", trace, flag, "876000h")
		if err == nil || !strings.Contains(err.Error(), "passed its horizon") {
			t.Errorf("%s at its bound: err = %v, want the run to reach its horizon", flag, err)
		}
		_, err = run(t, "sim", "--trace", trace, flag, "876000h0m0.000000001s")
		if err == nil || !strings.Contains(err.Error(), flag+" 876000h0m0.000000001s: want 0 to 876000h0m0s") {
			t.Errorf("%s past its bound: err = %v", flag, err)
		}
	}
	if _, err := run(t, "sim", "--trace", trace, "--conf", "spindle.executor.instances=10000", "--json"); err != nil {
		t.Errorf("10000 static executors: %v", err)
	}
	_, err := run(t, "sim", "--trace", trace, "--conf", "spindle.executor.instances=10001")
	if err == nil || !strings.Contains(err.Error(), "spindle.executor.instances 10001: the simulator runs 0 to 10000 executors") {
		t.Errorf("10001 static executors: err = %v", err)
	}
	// The report: a submission time past time.Duration's range gave a
	// negative makespan and exit status 0.
	far := filepath.Join(dir, "far.csv")
	os.WriteFile(far, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,1,1,1,0\n1e10,b,s,1,1,1,0\n"), 0o644)
	if out, err := run(t, "sim", "--trace", far, "--json"); err == nil || !strings.Contains(err.Error(), "far.csv:3:1: submit_s \"1e10\": more than") {
		t.Errorf("submit_s 1e10: err = %v\n%s", err, out)
	}
}

// --time-scale runs the trace X times faster: with no allocation or
// start-up delay and a fixed set of executors, every time divides by X;
// a scale that is not above 0 is refused, naming the flag.
func TestSimTimeScaleDividesTheTracesTimes(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(trace, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,4,20,1,0\n10,b,s,2,30,1,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"sim", "--trace", trace, "--conf", "spindle.executor.instances=2", "--alloc-delay", "0s", "--startup-delay", "0s", "--json"}
	one, ten := simResult(t, args...), simResult(t, append(args, "--time-scale", "10")...)
	for _, k := range []string{"makespan_s", "executor_seconds", "mean_job_s"} {
		if one[k] == 0 || ten[k] != one[k]/10 {
			t.Errorf("%s: %v at scale 1, %v at scale 10; want a tenth", k, one[k], ten[k])
		}
	}
	if out, err := run(t, append(args, "--time-scale", "0")...); err == nil || !strings.Contains(err.Error(), "--time-scale: time scale 0: want a number above 0") {
		t.Errorf("--time-scale 0: %v\n%s", err, out)
	}
}

// The simulator applies a session's limits on waiting tasks, as the
// session would: bursty.csv's largest jobs have 240 tasks.
func TestSimAppliesTheSessionLimits(t *testing.T) {
	args := func(limit string) []string {
		return append(simArgs("spindle"), "--conf", "spindle.session.maxPendingTasksPerJob="+limit)
	}
	if res := simResult(t, args("240")...); res["tasks"] != 3560 {
		t.Errorf("at the limit: %v tasks run, want all 3560", res["tasks"])
	}
	out, err := run(t, args("239")...)
	if err == nil || !strings.Contains(err.Error(), `job "burst01" has 240 tasks waiting, more than spindle.session.maxPendingTasksPerJob (239)`) {
		t.Fatalf("one past the limit: %v\n%s", err, out)
	}
}
