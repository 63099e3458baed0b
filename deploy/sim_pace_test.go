package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
)

// paceTrace is three jobs of one-GPU tasks, the second and third
// arriving while the first runs.
const paceTrace = "submit_s,job,stage,tasks,task_s,cpus,gpus\n0,a,s,8,10,1,1\n5,b,s,8,10,1,1\n40,c,s,16,5,1,1\n"

var paceConf = []string{"spindle.executor.cores=4", "spindle.executor.resource.gpu.amount=4",
	"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.maxExecutors=8"}

// simPaced runs spindle sim on paceTrace under paceConf and more.
func simPaced(t *testing.T, more ...string) map[string]float64 {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "pace.csv")
	if err := os.WriteFile(trace, []byte(paceTrace), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"sim", "--trace", trace, "--json"}
	for _, kv := range append(slices.Clone(paceConf), more...) {
		args = append(args, "--conf", kv)
	}
	return simResult(t, args...)
}

// amAllocates drives the AM's own core, configured from the same settings
// as the AM builds it, on the trace's first job with an RM that grants
// nothing for a minute: it returns when the core called allocate, and the
// most containers it asked for at once.
func amAllocates(t *testing.T, more ...string) (calls []time.Duration, asked int) {
	t.Helper()
	conf, err := config.Load(nil, append(slices.Clone(paceConf), more...))
	if err != nil {
		t.Fatal(err)
	}
	job, err := jobspec.Parse([]byte("name: a\nstages:\n  - {name: s, tasks: 8, resources: {cpus: 1, gpus: 1}, command: \"true\"}\n"), "job.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, stages, err := settings.Core(conf, settings.CoreFor{AppID: "application_1_0001", Job: job, Containers: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := core.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(0, 0)
	if _, err := c.Submit(start, job, stages); err != nil {
		t.Fatal(err)
	}
	outstanding := map[int64]int{} // by allocation request id, as YARN counts asks
	for now := start; now.Sub(start) < time.Minute; {
		rd := c.Ready(now)
		if rd.Allocate != nil {
			calls = append(calls, now.Sub(start))
			for _, a := range rd.Allocate.Asks {
				outstanding[a.ID] = a.Count
			}
			sum := 0
			for _, n := range outstanding {
				sum += n
			}
			asked = max(asked, sum)
			c.Allocated(now, core.AllocateResult{ClusterNodes: 1})
			continue
		}
		if rd.Next.IsZero() {
			break
		}
		now = rd.Next
	}
	return calls, asked
}

// spindle sim runs the AM's rules under the AM's settings: the allocate
// pace (spindle.yarn.scheduler.heartbeat.interval-ms and
// .initial-allocation.interval) and fine mode change its makespan and
// container requests, as they change when and what the AM's core asks.
func TestSimIsPacedAndShapedAsTheAM(t *testing.T) {
	const hb, slow = "spindle.yarn.scheduler.heartbeat.interval-ms=1s", "spindle.yarn.scheduler.heartbeat.interval-ms=5s"
	fast, late := simPaced(t, hb), simPaced(t, slow)
	if fast["makespan_s"] == late["makespan_s"] || fast["container_requests"] == late["container_requests"] {
		t.Errorf("heartbeat 1s and 5s simulate alike: %v and %v", fast, late)
	}
	amFast, _ := amAllocates(t, hb)
	amLate, _ := amAllocates(t, slow)
	if slices.Equal(amFast, amLate) {
		t.Errorf("the AM's core allocates at %v under both heartbeats", amFast)
	}
	if first := simPaced(t, hb, "spindle.yarn.scheduler.initial-allocation.interval=2s"); first["makespan_s"] == fast["makespan_s"] {
		t.Errorf("an initial allocation interval of 2s simulates as 200ms does: %v", first)
	}
	if amFirst, _ := amAllocates(t, hb, "spindle.yarn.scheduler.initial-allocation.interval=500ms"); amFirst[1] != 500*time.Millisecond {
		t.Errorf("the AM's core allocates at %v; want its second call at the initial interval, 500ms", amFirst)
	}

	// Fine mode: a container per task, in the simulator as in the AM.
	fine := simPaced(t, hb, "spindle.yarn.mode=fine")
	if fine["container_requests"] != fine["tasks"] || fast["container_requests"] >= fast["tasks"] || fine["makespan_s"] == fast["makespan_s"] {
		t.Errorf("fine mode: %v; coarse: %v; want a container per task in fine mode only", fine, fast)
	}
	if _, asked := amAllocates(t, hb, "spindle.yarn.mode=fine"); asked != 8 {
		t.Errorf("the AM's core in fine mode asks for %d containers for 8 tasks; want 8", asked)
	}
	if _, asked := amAllocates(t, hb); asked >= 8 {
		t.Errorf("the AM's core in coarse mode asks for %d containers of 4 GPUs for 8 one-GPU tasks", asked)
	}
}
