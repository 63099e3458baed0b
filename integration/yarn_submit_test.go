package integration

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A GPU job through YARN end to end: spindle submit --master yarn stages
// itself to HDFS, the ApplicationMaster asks for containers carrying
// yarn.io/gpu, starts executors in them with per-node GPU indices, and runs
// the tasks. The tasks take long enough (3s, 16 for 16 slots) that an
// executor registering a NodeManager heartbeat or two after the others
// (Hadoop 3.3 and 3.4 hand containers out a heartbeat at a time) still
// gets some.
func TestYarnGPUJobSucceedsWithDistinctIndicesPerNode(t *testing.T) {
	c := testcluster.Get(t)
	out := filepath.Join(t.TempDir(), "seen")
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-gpu
stages:
  - name: s
    tasks: 16
    resources: {cpus: 1, gpus: 0.5}
    command: ["/bin/sh", "-c", "echo $SPINDLE_EXECUTOR_ID $CUDA_VISIBLE_DEVICES $PWD $(tr '\\0' '\\n' < /proc/$(cut -d' ' -f4 /proc/$PPID/stat)/environ | sed -n 's/^SPINDLE_EXECUTOR_AM_GPU_INDICES=//p') >> %s; sleep 3"]
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
	list := map[string]string{}          // container → its GPU list, from its executor's environment
	node := map[string]string{}          // container → NodeManager
	for _, l := range lines {
		if len(l) != 4 || !strings.HasPrefix(l[0], "container_") {
			t.Fatalf("task record %q: want container, address, working directory, the container's GPU list", l)
		}
		m := nodeOf.FindStringSubmatch(l[2])
		if m == nil {
			t.Fatalf("working directory %s names no NodeManager", l[2])
		}
		if seen[l[0]] == nil {
			seen[l[0]] = map[string]bool{}
		}
		seen[l[0]][l[1]] = true
		node[l[0]], list[l[0]] = m[1], l[3]
	}
	if len(seen) != 4 {
		t.Errorf("tasks ran in %d containers, want the 4 executors", len(seen))
	}
	// Every task saw an address from its container's list of 2, and two
	// containers on one node never share an index.
	owner := map[string]string{}
	for ct, addrs := range seen {
		own := strings.Split(list[ct], ",")
		if len(own) != 2 {
			t.Errorf("container %s has GPU list %q, want 2 indices", ct, list[ct])
		}
		for a := range addrs {
			if !slices.Contains(own, a) {
				t.Errorf("a task in container %s saw GPU %s, not in its list %q", ct, a, list[ct])
			}
		}
		for _, a := range own {
			key := node[ct] + "/" + a
			if other, ok := owner[key]; ok && other != ct {
				t.Errorf("GPU index %s on NodeManager %s held by %s and %s", a, node[ct], other, ct)
			}
			owner[key] = ct
		}
	}
}

func TestYarnFilesReachExecutorsAndStagingIsRemoved(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	note := filepath.Join(dir, "note.txt")
	os.WriteFile(note, []byte("shipped-content\n"), 0o644)
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-files
stages:
  - name: s
    tasks: 2
    command: "cat note.txt >> %s"
`, out))
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", "--files", note,
		"--conf", "spindle.yarn.tags=Team-A, nightly", spec)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	if b, _ := os.ReadFile(out); string(b) != "shipped-content\nshipped-content\n" {
		t.Fatalf("tasks read %q from the shipped file", b)
	}
	m := submittedID.FindStringSubmatch(o)
	if m == nil {
		t.Fatalf("no application id in the output:\n%s", o)
	}
	// The RM keeps the application type and the tags.
	app, err := rmApp(t, c, m[1])
	if err != nil {
		t.Fatal(err)
	}
	if tags := strings.Split(app.Tags, ","); !slices.Contains(tags, "Team-A") || !slices.Contains(tags, "nightly") || len(tags) != 2 || app.Type != "SPINDLE" {
		t.Errorf("the RM has the application as type %q with tags %q; want SPINDLE with Team-A and nightly", app.Type, app.Tags)
	}
	if out, err := spindleOn(t, c, "status", m[1]); err != nil || !strings.Contains(out, "Tags          Team-A,nightly") {
		t.Errorf("spindle status shows no tags: %v\n%s", err, out)
	}
	client := hdfsClient(t, c)
	staged := "/user/" + userName(t) + "/.spindle/" + m[1]
	if _, err := client.Stat(staged); !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("staging directory %s after the application ended: err = %v, want it removed", staged, err)
	}
}

func TestYarnSubmitRefusesMoreGPUsThanAnyNodeHas(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: big\nstages:\n  - {name: s, tasks: 1, builtin: noop}\n")
	start := time.Now()
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--executor-gpus", "8", spec)
	if err == nil {
		t.Fatalf("an executor of 8 GPUs on nodes of 4 was submitted:\n%s", o)
	}
	if !strings.Contains(o, "yarn.io/gpu") || !strings.Contains(o, "maximum allocation of 4") {
		t.Fatalf("the error does not name the resource and the maximum:\n%s", o)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("refusing took %v", d)
	}
}

func TestYarnExecutorKilledMidJobTheJobStillSucceeds(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-survive
stages:
  - name: s
    tasks: 8
    command: "cut -d' ' -f4 /proc/$PPID/stat > %[1]s/pid-$SPINDLE_EXECUTOR_ID; sleep 2; echo done >> %[1]s/done"
`, dir))
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=2",
		"--conf", "spindle.executor.cores=2", "--conf", "spindle.executor.memory=512m", spec)
	// Once an executor runs a task, kill it outright.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		pids, _ := filepath.Glob(filepath.Join(dir, "pid-*"))
		if len(pids) > 0 {
			b, _ := os.ReadFile(pids[0])
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no executor ran a task\n%s", buf.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job failed after losing an executor: %v\n%s", err, buf.String())
	}
	if n := len(readLines(t, filepath.Join(dir, "done"))); n < 8 {
		t.Errorf("%d tasks completed, want all 8", n)
	}
}

func TestYarnDynamicAllocationScalesUpThenReleasesIdleExecutors(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-dynamic
stages:
  - name: burst
    tasks: 12
    command: "sleep 2"
  - name: tail
    after: [burst]
    tasks: 1
    command: "touch %s/tail-started; sleep 10"
`, dir))
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.cores=2", "--conf", "spindle.executor.memory=512m",
		"--conf", "spindle.dynamicAllocation.enabled=true", "--conf", "spindle.dynamicAllocation.maxExecutors=6",
		"--conf", "spindle.dynamicAllocation.surplusIdleTimeout=1s", "--conf", "spindle.dynamicAllocation.warmPool.size=0",
		"--conf", "spindle.dynamicAllocation.executorIdleTimeout=1s", spec)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	peak, releasedDuringTail := 0, false
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the job failed: %v\n%s", err, buf.String())
			}
			// 12 tasks of 2 per executor want 6 executors: with the AM, well
			// above the 3 containers of the static default (2 executors).
			if peak < 5 {
				t.Errorf("at most %d containers ran: the burst did not scale executors up", peak)
			}
			if !releasedDuringTail {
				t.Errorf("idle executors were not released while the tail ran (peak %d)", peak)
			}
			return
		case <-tick.C:
			n := runningContainers(t, c)
			peak = max(peak, n)
			if _, err := os.Stat(filepath.Join(dir, "tail-started")); err == nil && n > 0 && n <= 2 {
				// The AM and the one executor the tail needs.
				releasedDuringTail = true
			}
		}
	}
}

// Fine-grained mode: a container per task, sized to its stage's tasks
// (the RM's own record of the containers says so), each gone when its
// task is.
func TestYarnFineGrainedModeRunsEachTaskInItsOwnContainer(t *testing.T) {
	c := testcluster.Get(t)
	out := filepath.Join(t.TempDir(), "ran")
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-fine
stages:
  - name: gpu
    tasks: 4
    resources: {cpus: 1, gpus: 1}
    command: "echo $SPINDLE_EXECUTOR_ID $CUDA_VISIBLE_DEVICES >> %[1]s; sleep 1"
  - name: wide
    after: [gpu]
    tasks: 2
    resources: {cpus: 2}
    command: "echo $SPINDLE_EXECUTOR_ID none >> %[1]s; sleep 1"
`, out))
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.yarn.mode=fine", "--conf", "spindle.executor.memory=512m",
		"--conf", "spindle.dynamicAllocation.maxExecutors=4", spec)
	// The RM's record of the executor containers while they run: their
	// shape by priority (one per profile; the AM's is 0).
	shapes := map[string]bool{}
	whileSubmitRuns(t, c, cmd, buf, "fine-grained submit", func(ct container) { shapes[fmt.Sprintf("%d vcores, %d yarn.io/gpu", ct.VCores, ct.GPUs)] = true })
	want := map[string]bool{"1 vcores, 1 yarn.io/gpu": true, "2 vcores, 0 yarn.io/gpu": true}
	if !maps.Equal(shapes, want) {
		t.Errorf("executor containers seen %v, want one shape per stage: %v", shapes, want)
	}
	lines := readLines(t, out)
	if len(lines) != 6 {
		t.Fatalf("%d tasks ran, want 6", len(lines))
	}
	containers := map[string]bool{}
	for _, l := range lines {
		if len(l) != 2 {
			t.Fatalf("task record %q: want a container and its GPU", l)
		}
		if containers[l[0]] {
			t.Errorf("container %s ran more than one task", l[0])
		}
		containers[l[0]] = true
	}
}
