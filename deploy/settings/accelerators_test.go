package settings

import (
	"maps"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

func loadConf(t *testing.T, overrides ...string) *config.Config {
	t.Helper()
	conf, err := config.Load(nil, overrides)
	if err != nil {
		t.Fatal(err)
	}
	return conf
}

func TestAcceleratorsAtTheExecutorsAmountAndOnePast(t *testing.T) {
	conf := loadConf(t, "spindle.executor.resource.fpga.amount=2", "spindle.task.resource.fpga.amount=2", "spindle.executor.resource.tpu.amount=1")
	exec, task, err := Accelerators(conf)
	if err != nil {
		t.Fatal(err)
	}
	if exec.String() != "2 fpga, 1 tpu" || task.String() != "2 fpga" {
		t.Errorf("executor %v, task %v", exec, task)
	}
	p, err := ExecutorProfile(conf)
	if err != nil || p.Accels != exec {
		t.Errorf("the executor profile has %v (%v), want %v", p.Accels, err, exec)
	}
	_, _, err = Accelerators(loadConf(t, "spindle.executor.resource.fpga.amount=2", "spindle.task.resource.fpga.amount=3"))
	if err == nil || err.Error() != "spindle.task.resource.fpga.amount 3: executors have 2 (spindle.executor.resource.fpga.amount)" {
		t.Errorf("a task asking one more than executors have: %v", err)
	}
	_, _, err = Accelerators(loadConf(t, "spindle.task.resource.vpu.amount=1"))
	if err == nil || !strings.Contains(err.Error(), "spindle.task.resource.vpu.amount 1: executors have 0") {
		t.Errorf("a task asking a resource executors lack: %v", err)
	}
}

func TestAcceleratorsAtMostFourKinds(t *testing.T) {
	set := []string{"spindle.executor.resource.a.amount=1", "spindle.executor.resource.b.amount=1", "spindle.executor.resource.c.amount=1",
		"spindle.executor.resource.d.amount=1"}
	if _, _, err := Accelerators(loadConf(t, set...)); err != nil {
		t.Fatalf("four kinds: %v", err)
	}
	_, _, err := Accelerators(loadConf(t, append(set, "spindle.executor.resource.e.amount=1")...))
	if err == nil || !strings.Contains(err.Error(), "spindle.executor.resource.*.amount: 5 accelerators (a, b, c, d, e): at most 4") {
		t.Errorf("five kinds: %v", err)
	}
}

func TestResourceTypes(t *testing.T) {
	types, err := ResourceTypes(loadConf(t, "spindle.executor.resource.fpga.amount=1", "spindle.executor.resource.tpu.amount=2",
		"spindle.yarn.resourceMapping=tpu=example.com/tpu,vpu=example.com/vpu", "spindle.worker.resource.npu.addresses=0"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"fpga": "yarn.io/fpga", "tpu": "example.com/tpu"}; !maps.Equal(types, want) {
		t.Errorf("types %v, want %v (only what executors have)", types, want)
	}
	_, err = ResourceTypes(loadConf(t, "spindle.executor.resource.tpu.amount=2"), nil)
	if err == nil || !strings.Contains(err.Error(), "spindle.executor.resource.tpu.amount 2: tpu has no YARN resource type; name it in spindle.yarn.resourceMapping") {
		t.Errorf("an unmapped resource: %v", err)
	}
}
