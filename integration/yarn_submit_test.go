package integration

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A GPU job through YARN end to end: spindle submit --master yarn stages
// itself to HDFS, the ApplicationMaster asks for containers carrying
// yarn.io/gpu, starts executors in them with per-node GPU indices, and runs
// the tasks.
func TestYarnGPUJobSucceedsWithDistinctIndicesPerNode(t *testing.T) {
	c := testcluster.Get(t)
	out := filepath.Join(t.TempDir(), "seen")
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-gpu
stages:
  - name: s
    tasks: 16
    resources: {cpus: 1, gpus: 0.5}
    command: ["/bin/sh", "-c", "echo $SPINDLE_EXECUTOR_ID $CUDA_VISIBLE_DEVICES $PWD >> %s; sleep 0.5"]
`, out))
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=4", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.memory=512m", spec)
	if err != nil {
		t.Fatalf("submit --master yarn: %v\n%s", err, o)
	}
	if !strings.Contains(o, "FINISHED") {
		t.Fatalf("the application did not report FINISHED:\n%s", o)
	}
	lines := readLines(t, out)
	if len(lines) != 16 {
		t.Fatalf("%d task records, want 16", len(lines))
	}
	nodeOf := regexp.MustCompile(`nm-(\d+)_`)
	seen := map[string]map[string]bool{} // container → addresses its tasks saw
	node := map[string]string{}          // container → NodeManager
	for _, l := range lines {
		if len(l) != 3 || !strings.HasPrefix(l[0], "container_") {
			t.Fatalf("task record %q: want container, address, working directory", l)
		}
		m := nodeOf.FindStringSubmatch(l[2])
		if m == nil {
			t.Fatalf("working directory %s names no NodeManager", l[2])
		}
		if seen[l[0]] == nil {
			seen[l[0]] = map[string]bool{}
		}
		seen[l[0]][l[1]] = true
		node[l[0]] = m[1]
	}
	if len(seen) != 4 {
		t.Errorf("tasks ran in %d containers, want the 4 executors", len(seen))
	}
	// A container of 2 GPUs shows its tasks at most 2 addresses, and two
	// containers on one node never share an index.
	owner := map[string]string{}
	for ct, addrs := range seen {
		if len(addrs) > 2 {
			t.Errorf("container %s showed its tasks %d addresses: %v", ct, len(addrs), addrs)
		}
		for a := range addrs {
			key := node[ct] + "/" + a
			if other, ok := owner[key]; ok && other != ct {
				t.Errorf("GPU index %s on NodeManager %s held by %s and %s", a, node[ct], other, ct)
			}
			owner[key] = ct
		}
	}
}
