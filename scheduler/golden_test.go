package scheduler

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/internal/scenario"
)

var update = flag.Bool("update", false, "rewrite testdata/scenarios/*.txt with the scheduler's output")

// TestGolden runs the scripts in testdata/scenarios through
// internal/scenario, in the manner of etcd-io/raft's datadriven tests:
// each block is a command (with input lines under it), "----", and the
// expected output. `go test -run Golden -update` rewrites the expected
// output from what the scheduler does now.
//
// Commands (key=value arguments; "reason=" takes the rest of the line):
//
//	config mode=FAIR locality=3s maxfailures=4 exclusion=2/10m/2m backoff=200ms/10s
//	    gang=1m/2 (gang timeout/retries; gang=1m/2/soft for the soft style)
//	    speculation=1.5/0.75/100ms (multiplier/quantile/minTaskRuntime: on)
//	    (input lines: pool NAME weight=W minshare=M mode=FAIR)
//	profile id=0 cores=4 gpus=2
//	executor id=e1 host=h1 rack=r1 cores=4 gpus=0,1 profile=0
//	remove id=e1 reason=... fault
//	submit name=j pool=p
//	    (input lines: stage NAME tasks=N cpus=C gpus=G after=a,b
//	     profile=P attempts=A hosts=h1,h2 executors=e1 gang
//	     speculate|nospeculate
//	     prefer=h1+h2@r1,h3,- (each task's hosts@racks) wait=3s)
//	finish s0/1#0 ok|fail|blameless|killed on=e1 reason=...
//	    (on= the reporting executor; by default the one running it)
//	restore s0/1                  (succeeded in an earlier AM attempt)
//	failures s0/1 n=2             (failed twice in earlier AM attempts)
//	adopt s0/1#2 on=e1 gpus=0,1   (running there since an earlier one)
//	attempts from=1000            (this AM attempt's first attempt number)
//	cancel job=0 reason=...
//	advance 3s
//	ready | held (Ready placing nothing) | why job=0 | demand profile=0 | executors | wakeup
//	progress job=0 | progress pool=NAME
func TestGolden(t *testing.T) {
	scenario.TestDir(t, filepath.Join("testdata", "scenarios"), *update, func() scenario.Step {
		g := &golden{now: t0}
		return g.step
	})
}

// A misspelled number fails the script at its line, not as a default.
func TestGoldenRefusesAMisspelledNumber(t *testing.T) {
	for _, c := range []struct{ script, want string }{
		{"profile id=0 cores=4\n----\nok\n\nsubmit name=j\nstage s0 tasks=1O\n----\njob 0\n", ":6: submit name=j: tasks=\"1O\": not a whole number"},
		{"profile id=0 cores=x4\n----\nok\n", ":1: profile id=0 cores=x4: cores=\"x4\": not a whole number"},
		{"advance 3z\n----\nnow +3s\n", ":1: advance 3z: advance=\"3z\": not a duration"},
		{"executor id=e1 cores=1 gpu=0\n----\nok\n", ":1: executor id=e1 cores=1 gpu=0: executor gpu=0: unknown key"},
	} {
		path := filepath.Join(t.TempDir(), "typo.txt")
		if err := os.WriteFile(path, []byte(c.script), 0o644); err != nil {
			t.Fatal(err)
		}
		g := &golden{now: t0}
		_, err := scenario.RunFile(path, g.step)
		if err == nil || !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("script %q: error %v, want %s%s", c.script, err, path, c.want)
		}
	}
}

type golden struct {
	s   *Scheduler
	now time.Time
}

func (g *golden) sched() (*Scheduler, error) {
	if g.s == nil {
		s, err := New(Config{})
		if err != nil {
			return nil, err
		}
		g.s = s
	}
	return g.s, nil
}

// result shows an event's error as output, not a failure of the script:
// scripts show what is rejected.
func result(err error) (string, error) {
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return "ok", nil
}

func (g *golden) step(b scenario.Block) (string, error) {
	a := scenario.ParseArgs(b.Cmd, "reason")
	if a.Cmd == "config" {
		return g.config(a, b.Input)
	}
	s, err := g.sched()
	if err != nil {
		return "", err
	}
	switch a.Cmd {
	case "profile", "executor", "remove", "finish", "cancel", "restore", "failures", "adopt", "attempts":
		return g.event(s, a)
	case "submit":
		return g.submit(s, a, b.Input)
	case "advance":
		d := a.ParseDuration("advance", a.Words(1)[0])
		if err := a.Err(); err != nil {
			return "", err
		}
		g.now = g.now.Add(d)
		return "now +" + g.now.Sub(t0).String(), nil
	case "ready":
		return goldenReady(s.Ready(g.now)), a.Err()
	case "held":
		return goldenReady(s.Held(g.now)), a.Err()
	case "why", "demand", "executors", "wakeup", "progress":
		return g.query(a)
	}
	return "", fmt.Errorf("unknown command %q", a.Cmd)
}

// event runs the commands that change the scheduler with one call.
func (g *golden) event(s *Scheduler, a *scenario.Args) (string, error) {
	var call func() error
	switch a.Cmd {
	case "profile":
		p := Profile{ID: ProfileID(a.Int("id", 0)), Cores: a.Int("cores", 1), GPUs: a.Int("gpus", 0)}
		call = func() error { return s.AddProfile(p) }
	case "executor":
		e := ExecutorSpec{ID: ExecutorID(a.String("id", "")), Host: a.String("host", ""), Rack: a.String("rack", ""), Profile: ProfileID(a.Int("profile", 0)), Cores: a.Int("cores", 1), GPUs: a.List("gpus")}
		call = func() error { return s.AddExecutor(g.now, e) }
	case "remove":
		id, loss := ExecutorID(a.String("id", "")), ExecutorLoss{Reason: a.String("reason", ""), TaskFault: a.Flag("fault")}
		call = func() error { return s.RemoveExecutor(g.now, id, loss) }
	case "finish":
		attempt, r := goldenFinish(a)
		on := ExecutorID(a.String("on", string(runsOn(s, attempt))))
		call = func() error { return s.TaskFinished(g.now, on, attempt, r) }
	case "cancel":
		id, reason := JobID(a.Int("job", 0)), a.String("reason", "")
		call = func() error { return s.CancelJob(id, reason) }
	case "restore":
		var id TaskID
		goldenScan(a, "s%d/%d", "s<stage>/<index>", &id.Stage, &id.Index)
		call = func() error { return s.RestoreSucceeded(g.now, id) }
	case "failures":
		var id TaskID
		goldenScan(a, "s%d/%d", "s<stage>/<index>", &id.Stage, &id.Index)
		n := a.Int("n", 1)
		call = func() error { return s.RestoreFailures(id, n) }
	case "attempts":
		first := a.Int("from", 0)
		call = func() error { return s.NumberAttemptsFrom(first) }
	case "adopt":
		var at AttemptID
		goldenScan(a, "s%d/%d#%d", "s<stage>/<index>#<attempt>", &at.Task.Stage, &at.Task.Index, &at.Attempt)
		ex, addrs := ExecutorID(a.String("on", "")), a.List("gpus")
		call = func() error { return s.Adopt(g.now, ex, at, addrs) }
	}
	if err := a.Err(); err != nil {
		return "", err
	}
	return result(call())
}

// goldenScan reads the command's one word by format into ptrs; want
// says what it should look like.
func goldenScan(a *scenario.Args, format, want string, ptrs ...any) {
	w := a.Words(1)[0]
	if _, err := fmt.Sscanf(w, format, ptrs...); err != nil {
		a.Fail("%q: want %s", w, want)
	}
}

// goldenFinish reads "finish sS/I#A OUTCOME reason=...".
func goldenFinish(a *scenario.Args) (AttemptID, TaskResult) {
	w := a.Words(2)
	var at AttemptID
	if _, err := fmt.Sscanf(w[0], "s%d/%d#%d", &at.Task.Stage, &at.Task.Index, &at.Attempt); err != nil {
		a.Fail("attempt %q: want s<stage>/<index>#<attempt>", w[0])
	}
	r := TaskResult{Reason: a.String("reason", "")}
	switch w[1] {
	case "ok":
		r.Outcome = Succeeded
	case "fail":
		r.Outcome = Failed
	case "blameless":
		r.Outcome, r.Blameless = Failed, true
	case "killed":
		r.Outcome = Killed
	default:
		a.Fail("outcome %q: want ok, fail, blameless or killed", w[1])
	}
	return at, r
}

func (g *golden) submit(s *Scheduler, a *scenario.Args, input []scenario.Input) (string, error) {
	spec, err := goldenJob(a, input)
	if r, ok := err.(rejected); ok {
		return "error: " + r.Error(), nil
	} else if err != nil {
		return "", err
	}
	id, err := s.SubmitJob(g.now, spec)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return fmt.Sprintf("job %d", id), nil
}
