package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A task that takes its executor down with it: YARN reports the container's
// exit status (137, SIGKILL), the AM blames the task for it, and with
// spindle.task.maxFailures=2 the job fails naming the exit instead of
// running the task again forever as if the losses were nobody's doing.
func TestYarnExecutorExitIsBlamedOnItsTasks(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, `name: yarn-blame
stages:
  - name: s
    tasks: 1
    command: "kill -9 $(cut -d' ' -f4 /proc/$PPID/stat); sleep 5"
`)
	start := time.Now()
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.task.maxFailures=2",
		"--conf", "spindle.yarn.executor.launch.excludeOnFailure.enabled=false", spec)
	if err == nil {
		t.Fatalf("the job succeeded though its one task killed its executor every time:\n%s", o)
	}
	for _, want := range []string{"failed 2 times", "exited with status 137"} {
		if !strings.Contains(o, want) {
			t.Errorf("the failure does not say %q:\n%s", want, o)
		}
	}
	t.Logf("failed after %v:\n%s", time.Since(start).Round(time.Millisecond), o)
	waitContainers(t, c, 0, 0, 30*time.Second, "the RM after the application ended")
}

// Executors that cannot start — a GPU discovery script that fails — count
// against their node; two failures exclude it from the asks (as host:port,
// the way the mini cluster's scheduler names its nodes), and once every
// node is excluded the application fails at once, saying why, and leaves
// nothing running.
func TestYarnFailingExecutorsExcludeTheirNodesAndFailTheApplication(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: yarn-bad-node\nstages:\n  - {name: s, tasks: 2, resources: {cpus: 1, gpus: 1}, command: \"true\"}\n")
	start := time.Now()
	// Executors of 4 GPUs on nodes of 4: each lands on a node of its own.
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.instances=2",
		"--executor-gpus", "4", "--conf", "spindle.executor.resource.gpu.discoveryScript=/bin/false", "--conf", "spindle.executor.maxNumFailures=10", spec)
	if err == nil {
		t.Fatalf("the job succeeded with executors that cannot start:\n%s", o)
	}
	for _, want := range []string{"every node is excluded", "exited with status 1", "[localhost:"} {
		if !strings.Contains(o, want) {
			t.Errorf("the failure does not say %q:\n%s", want, o)
		}
	}
	if d := time.Since(start); d > 90*time.Second {
		t.Errorf("failing took %v", d)
	}
	t.Logf("failed after %v:\n%s", time.Since(start).Round(time.Millisecond), o)
	waitContainers(t, c, 0, 0, 30*time.Second, "the RM after the application ended")
}
