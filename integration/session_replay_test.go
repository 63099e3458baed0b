package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/sim"
)

// spindle replay runs a trace's jobs in a local session ten times faster
// than written and reports what it measured in spindle sim's terms; a job
// the session refuses fails the replay, named.
func TestLocalSessionReplaysATrace(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[2]", "--conf", "spindle.executor.cores=2")
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.csv")
	// c is submitted at 10s and runs 5s, a tenth of that at --time-scale
	// 10: the makespan is 1.5s at least.
	if err := os.WriteFile(trace, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after\n"+
		"0,a,s,2,5,1,0,,\n5,b,prep,1,3,1,0,,\n5,b,main,2,5,1,0,,prep\n10,c,s,1,5,1,0,,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := u.run("replay", "--session", id, "--time-scale", "10", "--json", trace)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	var res sim.Result
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, out)
	}
	if res.Jobs != 3 || res.FailedJobs != 0 || res.Tasks != 6 {
		t.Errorf("jobs %d (%d failed), tasks %d; want 3 (0 failed), 6\n%s", res.Jobs, res.FailedJobs, res.Tasks, out)
	}
	if res.MakespanS < 1.5 || res.MakespanS > 10 || res.MeanJobS <= 0 || res.P95JobS < res.MeanJobS {
		t.Errorf("makespan %vs, jobs mean %vs p95 %vs: want 1.5s to 10s, a p95 past the mean\n%s", res.MakespanS, res.MeanJobS, res.P95JobS, out)
	}
	// Both executors were there all along, busy part of the time.
	if res.ExecutorSeconds <= res.IdleExecutorSeconds || res.IdleExecutorSeconds <= 0 || res.ExecutorSeconds < res.MakespanS ||
		res.PeakExecutors != 2 || res.ContainerRequests != 0 {
		t.Errorf("executor seconds %v, idle %v, peak %d, container requests %d: want more than idle, idle some, 2 at most, none asked\n%s",
			res.ExecutorSeconds, res.IdleExecutorSeconds, res.PeakExecutors, res.ContainerRequests, out)
	}

	// The session's executors have no GPU: g is refused, the rest run.
	gpu := filepath.Join(dir, "gpu.csv")
	if err := os.WriteFile(gpu, []byte("submit_s,job,stage,tasks,task_s,cpus,gpus\n0,ok,s,1,1,1,0\n0,g,s,1,1,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = u.run("replay", "--session", id, "--time-scale", "10", gpu)
	if err == nil || !strings.Contains(out, "jobs                   2 (1 failed)") || !strings.Contains(out, "1 of 2 jobs did not succeed: g (") {
		t.Errorf("replaying a job the session cannot run: %v, want a failure naming g\n%s", err, out)
	}

	if out, err := u.run("session", "stop", id); err != nil || !strings.Contains(out, "session "+id+" stopped") {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
}
