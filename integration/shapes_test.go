package integration

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Coarse mode's stage shapes: a 1-GPU stage runs on the default
// executors (1 core, 1 GiB, 1 GPU) and a CPU-only stage of 2g memory,
// which they cannot hold, on executors of its own shape (1 core, 2 GiB,
// no GPU). The RM's record of each container the tasks ran in says so.
func TestShapesEachStageRunsOnItsOwnExecutorShape(t *testing.T) {
	c := testcluster.Get(t)
	out := filepath.Join(t.TempDir(), "ran")
	spec := writeSpec(t, fmt.Sprintf(`name: shapes
stages:
  - name: train
    tasks: 2
    resources: {cpus: 1, gpus: 1}
    command: "echo train $SPINDLE_EXECUTOR_ID >> %[1]s; sleep 1"
  - name: gather
    after: [train]
    tasks: 2
    resources: {cpus: 1, memory: 2g}
    command: "echo gather $SPINDLE_EXECUTOR_ID >> %[1]s; sleep 1"
`, out))
	start := time.Now()
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--executor-gpus", "1", "--conf", "spindle.executor.memory=1g",
		"--conf", "spindle.executor.cores=1", "--conf", "spindle.executor.instances=2", spec)
	seen := map[string]container{} // the RM's executor containers, by id
	whileSubmitRuns(t, c, cmd, buf, "submit", func(ct container) { seen[ct.ID] = ct })
	t.Logf("the job took %v", time.Since(start))
	shapes := map[string]map[string]bool{}
	for _, l := range readLines(t, out) {
		ct, ok := seen[l[1]]
		if !ok {
			t.Fatalf("stage %s ran in %s, which the RM never showed running: %v", l[0], l[1], seen)
		}
		if shapes[l[0]] == nil {
			shapes[l[0]] = map[string]bool{}
		}
		shapes[l[0]][fmt.Sprintf("%d MiB, %d vcores, %d GPUs", ct.MemoryMB, ct.VCores, ct.GPUs)] = true
	}
	want := map[string]map[string]bool{"train": {"1024 MiB, 1 vcores, 1 GPUs": true}, "gather": {"2048 MiB, 1 vcores, 0 GPUs": true}}
	if !maps.EqualFunc(shapes, want, maps.Equal) {
		t.Errorf("each stage's containers as the RM has them: %v, want %v", shapes, want)
	}
}

// A stage whose own shape passes the cluster's maximum allocation is
// refused at submit, before any application is made, naming the stage.
func TestShapesSubmitRefusesAStageAboveTheMaximumAllocation(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: big\nstages:\n  - {name: huge, tasks: 1, resources: {cpus: 1, memory: 64g}, command: \"true\"}\n")
	o, err := spindleOn(t, c, "submit", "--master", "yarn", spec)
	if err == nil {
		t.Fatalf("a stage of 64g was submitted:\n%s", o)
	}
	if !strings.Contains(o, "the executor of stage [huge] asks for 65536 memory-mb, above the cluster's maximum allocation of") {
		t.Fatalf("the refusal does not name the stage, the memory and the maximum:\n%s", o)
	}
}

// A session on YARN takes a job whose stage needs a shape none of its
// executors has: it adds a profile on demand, asks for its containers
// (1 GiB where the session's executors have 512 MiB, as the RM records
// them), runs the job there and gives them back once it is done; a job
// needing one more profile than spindle.session.maxExecutorProfiles is
// refused, naming the stage and the key, as is one above the cluster's
// maximum allocation.
func TestShapesSessionAddsAProfileOnDemand(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	id := u.startSession("--master", "yarn", "--name", "shapes-session", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=1",
		"--conf", "spindle.executor.instances=1", "--conf", "spindle.session.maxExecutorProfiles=2")
	ran := filepath.Join(t.TempDir(), "ran")
	job := func(name, memory string) string {
		return writeSpec(t, fmt.Sprintf("name: %[1]s\nstages:\n  - name: %[1]s\n    tasks: 2\n    resources: {cpus: 1, memory: %[2]s}\n    command: \"echo $SPINDLE_EXECUTOR_ID >> %[3]s; sleep 1\"\n", name, memory, ran))
	}
	// A shape above the cluster's maximum allocation, which the AM had
	// from the RM, is refused before it counts.
	if o, err := u.run("submit", "--session", id, job("huge", "64g")); err == nil ||
		!strings.Contains(o, `stage "huge": its executors would need 65536 MiB of memory, more than the cluster's maximum allocation (8192)`) {
		t.Errorf("a job above the maximum allocation: %v\n%s", err, o)
	}
	cmd, out := u.start("submit", "--session", id, job("wide", "1g"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	seen := map[string]container{}
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil || !strings.Contains(out.String(), "job wide SUCCEEDED") {
				t.Fatalf("a job of a new shape: %v\n%s", err, out.String())
			}
			running = false
		case <-time.After(100 * time.Millisecond):
			for _, ct := range appContainers(t, c, id) {
				seen[ct.ID] = ct
			}
		}
	}
	for _, l := range readLines(t, ran) {
		if ct, ok := seen[l[0]]; !ok || ct.MemoryMB != 1024 {
			t.Errorf("a task ran in %s, which the RM has as %+v (seen: %t), want 1024 MiB", l[0], ct, ok)
		}
	}
	// The shape's executors go back once no task needs them: the AM and
	// the default profile's executor stay.
	waitContainers(t, c, 2, 2, time.Minute, "the session after the job of its own shape")
	o, err := u.run("submit", "--session", id, job("wider", "2g"))
	if err == nil || !strings.Contains(o, `stage "wider": a task needs 1 cpus, 0 GPUs, 2048 MiB, which no executor profile of this session holds, and a new one would be its profile 3, more than spindle.session.maxExecutorProfiles (2)`) {
		t.Errorf("a job past the session's profiles: %v\n%s", err, o)
	}
}

// Local mode's executors are fixed (local[N], spindle.executor.*): a
// local session refuses a job whose stage they cannot hold, naming the
// stage and what they have, and goes on taking jobs they can.
func TestShapesLocalSessionRefusesANewShape(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]", "--conf", "spindle.executor.memory=512m")
	spec := writeSpec(t, "name: big\nstages:\n  - {name: big, tasks: 1, resources: {cpus: 1, memory: 1g}, command: \"true\"}\n")
	o, err := u.run("submit", "--session", id, spec)
	if err == nil || !strings.Contains(o, `stage "big": a task needs 1 cpus, 0 GPUs, 1024 MiB, which no executor of this application can hold (profile 0: 1 cores, 0 GPUs, 512 MiB)`) {
		t.Errorf("a job of a new shape in a local session: %v\n%s", err, o)
	}
	if o, err := u.run("submit", "--session", id, "--tasks", "1", "--", "true"); err != nil {
		t.Errorf("a job its executors hold, after: %v\n%s", err, o)
	}
}
