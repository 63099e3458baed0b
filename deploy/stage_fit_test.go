package deploy

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
)

// fit loads the configuration and the spec and checks that the stages fit.
func fit(t *testing.T, specText string, overrides ...string) error {
	t.Helper()
	conf, err := config.Load(nil, overrides)
	if err != nil {
		t.Fatal(err)
	}
	d, err := settings.JobDefaults(conf)
	if err != nil {
		t.Fatal(err)
	}
	job, err := jobspec.Parse([]byte(specText), "job.yaml", d)
	if err != nil {
		t.Fatal(err)
	}
	m, err := conf.Master()
	if err != nil {
		t.Fatal(err)
	}
	return checkStagesFit(conf, job, m)
}

func stageAsking(resources string) string {
	return "name: j\nstages:\n  - name: a\n    tasks: 1\n    command: \"true\"\n    resources: " + resources + "\n"
}

func TestGPUStageOnExecutorsWithoutGPUsIsRefusedBeforeAnythingStarts(t *testing.T) {
	// In-process, reaching runLocal would start this test binary as
	// executors: the error comes first.
	_, _, err := runSplit("submit", "--master", "local[1]", spec(t, stageAsking("{gpus: 0.5}")))
	if err == nil || !strings.Contains(err.Error(), `job.yaml:3: stage "a": gpus 0.5 per task, but executors have none (spindle.executor.resource.gpu.amount): give them some with --executor-gpus N; `+
		`local mode shares out the GPUs spindle.worker.resource.gpu.addresses lists`) {
		t.Errorf("local: err = %v", err)
	}
	// On YARN the stage gets executors of its own shape, with a GPU.
	if err := fit(t, stageAsking("{gpus: 1}"), "spindle.master=yarn"); err != nil {
		t.Errorf("yarn: err = %v, want the stage taken, on a shape of its own", err)
	}
}

func TestStageFitsItsExecutorUpToTheLimit(t *testing.T) {
	for _, c := range []struct {
		resources string
		conf      []string
		err       string
	}{
		{"{memory: 1g}", nil, ""},
		{"{memory: 1025m}", nil, `job.yaml:3: stage "a": memory 1025m per task, but executors have 1g (spindle.executor.memory): raise it with --executor-memory 1025m`},
		{"{memory: 4g}", []string{"spindle.executor.memory=4g"}, ""},
		{"{cpus: 2}", []string{"spindle.executor.cores=2"}, ""},
		{"{cpus: 3}", []string{"spindle.executor.cores=2"}, `job.yaml:3: stage "a": cpus 3 per task, but executors have 2 (spindle.executor.cores): raise it with --executor-cores 3`},
		{"{gpus: 2}", []string{"spindle.executor.resource.gpu.amount=2"}, ""},
		{"{gpus: 3}", []string{"spindle.executor.resource.gpu.amount=2"}, `job.yaml:3: stage "a": gpus 3 per task, but executors have 2 (spindle.executor.resource.gpu.amount): raise it with --executor-gpus 3`},
		{"{gpus: 0.25}", []string{"spindle.executor.resource.gpu.amount=1"}, ""},
		// YARN's fine mode sizes a container to each stage; in coarse
		// mode a stage the executors cannot hold gets a shape of its own.
		{"{memory: 8g, cpus: 4, gpus: 2}", []string{"spindle.master=yarn", "spindle.yarn.mode=fine"}, ""},
		{"{memory: 8g, cpus: 4, gpus: 2}", []string{"spindle.master=yarn"}, ""},
		// A stage's own accelerators: locally the executors' must hold
		// them; on YARN the stage gets a shape that does.
		{"{fpga: 2}", []string{"spindle.executor.resource.fpga.amount=2"}, ""},
		{"{fpga: 2}", []string{"spindle.executor.resource.fpga.amount=1"}, `job.yaml:3: stage "a": resources.fpga 2 per task, but executors have 1 (spindle.executor.resource.fpga.amount): raise it with --conf spindle.executor.resource.fpga.amount=2`},
		{"{fpga: 2}", []string{"spindle.master=yarn"}, ""},
		// Local mode has no fine mode: the key is YARN's.
		{"{memory: 8g}", []string{"spindle.yarn.mode=fine"}, `job.yaml:3: stage "a": memory 8g per task, but executors have 1g`},
	} {
		err := fit(t, stageAsking(c.resources), c.conf...)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("resources %s, %v: err = %v, want %q", c.resources, c.conf, err, c.err)
		}
	}
}
