package integration

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/sim"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// simReplayTrace is about a minute of bursts: every 20 s an online job
// (2 tasks, then 6), 8 s later an adhoc one. Idle executors go 3 s after
// their burst, so each burst asks YARN again and waits for its
// containers: the allocation delay shows in executor time.
const simReplayTrace = `submit_s,job,stage,tasks,task_s,cpus,gpus,pool,after
0,burst0,prep,2,1,1,0,online,
0,burst0,map,6,2,1,0,online,prep
8,adhoc0,scan,3,3,1,0,adhoc,
20,burst1,prep,2,1,1,0,online,
20,burst1,map,6,2,1,0,online,prep
28,adhoc1,scan,3,3,1,0,adhoc,
40,burst2,prep,2,1,1,0,online,
40,burst2,map,6,2,1,0,online,prep
48,adhoc2,scan,3,3,1,0,adhoc,
`

// simReplaySettings is the session both run with: one-core executors,
// dynamic allocation up to 6 with no warm pool, FAIR pools.
const simReplaySettings = `spindle.executor.cores 1
spindle.executor.memory 512m
spindle.dynamicAllocation.enabled true
spindle.dynamicAllocation.maxExecutors 6
spindle.dynamicAllocation.surplusIdleTimeout 3s
spindle.dynamicAllocation.warmPool.size 0
spindle.dynamicAllocation.rampDownDelay 1s
spindle.scheduler.mode FAIR
`

// spindle sim keeps its promise: a short bursty trace replayed into a
// session on the mini cluster costs what spindle sim predicts for the
// same trace and settings, given the delays measured in the replay's own
// AM log (docs/sessions.md) — makespan, executor seconds, idle executor
// seconds and peak executors each within 15%. A simulator whose
// allocation delay is ten times too high is not within 15%, so the
// comparison can tell.
func TestSessionReplayOnYarnMatchesTheSimulator(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	trace, conf := filepath.Join(dir, "bursts.csv"), filepath.Join(dir, "session.conf")
	pools, err := filepath.Abs("../examples/sessions/pools.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trace, []byte(simReplayTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte(simReplaySettings+"spindle.scheduler.allocation.file "+pools+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	id := u.startSession("--master", "yarn", "--name", "sim-replay", "--properties-file", conf)
	out, err := u.run("replay", "--session", id, "--json", trace)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	var real sim.Result
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &real); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, out)
	}
	if out, err := u.run("session", "stop", id); err != nil {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	d := measureDelays(t, c, id)
	// The session counts an executor from its registration, the simulator
	// a container from its grant (am/core/session_stats.go): add the
	// start-ups the log shows to compare like with like.
	real.ExecutorSeconds += d.startupSeconds
	t.Logf("measured: allocation %v (median of %d), start-up %v (median of %d)", d.alloc, d.allocs, d.startup, d.startups)

	predict := func(alloc time.Duration) sim.Result {
		out, err := u.run("sim", "--trace", trace, "--properties-file", conf, "--alloc-delay", alloc.String(), "--startup-delay", d.startup.String(), "--json")
		if err != nil {
			t.Fatalf("sim: %v\n%s", err, out)
		}
		var res sim.Result
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil {
			t.Fatalf("sim --json: %v\n%s", err, out)
		}
		return res
	}
	predicted := predict(d.alloc)
	t.Logf("predicted %+v\nreplayed  %+v", predicted, real)
	if off := simReplayDifferences(predicted, real); len(off) > 0 {
		t.Errorf("spindle sim against the replay, past 15%%:\n%s", strings.Join(off, "\n"))
	}
	slow := predict(10 * d.alloc)
	t.Logf("with ten times the allocation delay %+v", slow)
	if off := simReplayDifferences(slow, real); len(off) == 0 {
		t.Errorf("a simulator with ten times the allocation delay (%v) is within 15%% of the replay on every figure: the comparison cannot tell", 10*d.alloc)
	}
}

// simReplayDifferences lists the figures where the prediction is more
// than 15% off the replay, each with both values.
func simReplayDifferences(predicted, real sim.Result) []string {
	var off []string
	for _, f := range []struct {
		name       string
		pred, real float64
	}{
		{"makespan (s)", predicted.MakespanS, real.MakespanS},
		{"executor seconds", predicted.ExecutorSeconds, real.ExecutorSeconds},
		{"idle executor seconds", predicted.IdleExecutorSeconds, real.IdleExecutorSeconds},
		{"peak executors", float64(predicted.PeakExecutors), float64(real.PeakExecutors)},
	} {
		if math.Abs(f.pred-f.real) > 0.15*f.real {
			off = append(off, fmt.Sprintf("  %s: predicted %.2f, replayed %.2f", f.name, f.pred, f.real))
		}
	}
	return off
}

// delays are the cluster's, as the session's AM log shows them.
type delays struct {
	alloc, startup   time.Duration // medians
	allocs, startups int           // how many each median is of
	startupSeconds   float64       // every executor's start-up, summed
}

var (
	amLogLine     = regexp.MustCompile(`^time="([^"]+)" level=\w+ msg="(asking the ResourceManager for containers|containers allocated|launching executor|executor registered)[^"]*"`)
	amLogExecutor = regexp.MustCompile(` (?:container|executor)=(container_\S+)`)
)

// measureDelays reads the session's AM log: the allocation delay is an
// ask's to the next allocation's (the asks that end with containers);
// the start-up, an executor's launch to its registration.
func measureDelays(t *testing.T, c *testcluster.Cluster, app string) delays {
	t.Helper()
	text := amFile(t, c, app, "am.stderr")
	var allocs, startups []time.Duration
	var asked time.Time
	launched := map[string]time.Time{}
	for _, line := range strings.Split(text, "\n") {
		m := amLogLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			t.Fatalf("the AM log's time %q: %v", m[1], err)
		}
		switch m[2] {
		case "asking the ResourceManager for containers":
			asked = at
		case "containers allocated":
			if !asked.IsZero() {
				allocs = append(allocs, at.Sub(asked))
				asked = time.Time{}
			}
		case "launching executor":
			if e := amLogExecutor.FindStringSubmatch(line); e != nil {
				launched[e[1]] = at
			}
		case "executor registered":
			if e := amLogExecutor.FindStringSubmatch(line); e != nil {
				if from, ok := launched[e[1]]; ok {
					startups = append(startups, at.Sub(from))
				}
			}
		}
	}
	if len(allocs) == 0 || len(startups) == 0 {
		t.Fatalf("the AM log shows %d allocations after an ask and %d executors' start-ups, want some of each:\n%s", len(allocs), len(startups), text)
	}
	d := delays{alloc: median(allocs), startup: median(startups), allocs: len(allocs), startups: len(startups)}
	for _, s := range startups {
		d.startupSeconds += s.Seconds()
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}
