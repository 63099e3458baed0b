package integration

import (
	"fmt"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// The RM allocates exactly the executor containers Spindle wants, in each
// of its modes: the AM sends an ask only when its want changes and counts
// the ask down as containers arrive, so no total is re-sent that the RM
// had already filled (Hadoop 3.5's RM allocated 8 containers for 4 wanted
// when every heartbeat re-sent the whole table).
func TestYarnRMAllocatesExactlyTheContainersWanted(t *testing.T) {
	c := testcluster.Get(t)
	for _, mode := range []struct {
		name string
		conf []string
		// tasks of a GPU each, sleeping secs: enough that each mode wants
		// 4 executors while the RM hands them out over several heartbeats.
		tasks int
		secs  float64
	}{
		{"static", []string{"spindle.executor.instances=4"}, 8, 1},
		{"dynamic", []string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.maxExecutors=4", "spindle.dynamicAllocation.warmPool.size=0"}, 8, 1},
		{"fine", []string{"spindle.yarn.mode=fine", "spindle.dynamicAllocation.maxExecutors=4"}, 4, 2},
	} {
		t.Run(mode.name, func(t *testing.T) {
			spec := writeSpec(t, fmt.Sprintf(`name: yarn-exact-%s
stages:
  - name: s
    tasks: %d
    resources: {cpus: 1, gpus: 1}
    command: "sleep %g"
`, mode.name, mode.tasks, mode.secs))
			args := []string{"submit", "--master", "yarn", "--conf", "spindle.executor.cores=1", "--conf", "spindle.executor.resource.gpu.amount=1", "--conf", "spindle.executor.memory=512m"}
			for _, kv := range mode.conf {
				args = append(args, "--conf", kv)
			}
			o, err := spindleOn(t, c, append(args, spec)...)
			if err != nil {
				t.Fatalf("submit: %v\n%s", err, o)
			}
			m := submittedID.FindStringSubmatch(o)
			if m == nil {
				t.Fatalf("no application id in the output:\n%s", o)
			}
			// The RM logs an allocation as it makes it; the application has
			// ended, so its record is whole but for a line being written.
			var got []string
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				got = auditedContainers(t, c, m[1])
				if len(got) >= 4 || time.Now().After(deadline) {
					break
				}
			}
			if len(got) != 4 {
				t.Errorf("Hadoop %s: the RM allocated %d executor containers to %s, want exactly the 4 wanted: %v", c.HadoopVersion, len(got), m[1], got)
			}
		})
	}
}
