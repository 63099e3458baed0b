package jobspec

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage's resources may name accelerators besides gpus, and its
// placement spread, pack or a bound per node: each is the stage's own.
func TestStageAcceleratorsAndPlacement(t *testing.T) {
	job, err := Parse([]byte(spec(
		"{name: g, tasks: 2, gang: true, resources: {gpus: 1, fpga: 2}, placement: {maxPerNode: 1}, builtin: noop}",
		"{name: l, tasks: 2, placement: pack, builtin: noop}",
		"{name: s, tasks: 1, placement: spread, resources: {fpga: 0}, nodeLabel: x, builtin: noop}",
		"{name: n, tasks: 1, builtin: noop}")), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		accels    map[string]int
		placement scheduler.Placement
	}{
		{map[string]int{"fpga": 2}, scheduler.Placement{MaxPerNode: 1}},
		{nil, scheduler.Placement{Affinity: scheduler.Pack}},
		{map[string]int{"fpga": 0}, scheduler.Placement{Affinity: scheduler.Spread}},
		{nil, scheduler.Placement{}},
	}
	for i, w := range want {
		st := job.Stages[i]
		if !reflect.DeepEqual(st.Accels, w.accels) || st.Placement != w.placement {
			t.Errorf("stage %s: accelerators %v, placement %+v; want %v, %+v", st.Name, st.Accels, st.Placement, w.accels, w.placement)
		}
	}
	again, err := job.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(again, "job.json", Defaults{})
	if err != nil {
		t.Fatalf("read back %s: %v", again, err)
	}
	for i := range back.Stages {
		if b, s := back.Stages[i], job.Stages[i]; !reflect.DeepEqual(b.Accels, s.Accels) || b.Placement != s.Placement {
			t.Errorf("written as %s, stage %s read back as %v %+v", again, b.Name, b.Accels, b.Placement)
		}
	}
}

// A stage's accelerator amounts replace the application's of the same
// name, 0 asking none; the others stay the application's.
func TestStageTaskAccels(t *testing.T) {
	app, _ := scheduler.NewAccelerators(map[string]int{"fpga": 1, "tpu": 2})
	for _, c := range []struct {
		stage map[string]int
		want  map[string]int
	}{
		{nil, map[string]int{"fpga": 1, "tpu": 2}},
		{map[string]int{"fpga": 2}, map[string]int{"fpga": 2, "tpu": 2}},
		{map[string]int{"tpu": 0, "npu": 4}, map[string]int{"fpga": 1, "npu": 4}},
	} {
		st := Stage{Accels: c.stage}
		got, err := st.TaskAccels(app)
		want, _ := scheduler.NewAccelerators(c.want)
		if err != nil || got != want {
			t.Errorf("stage %v over %v: %v (%v), want %v", c.stage, app, got, err, want)
		}
	}
}

// Bad accelerators and placements are refused at the line that gives
// them, naming the stage's field.
func TestStageAcceleratorAndPlacementErrors(t *testing.T) {
	for _, c := range []struct{ name, stage, want string }{
		{"amount not whole", "{name: a, tasks: 1, builtin: noop, resources: {fpga: 1.5}}", "job.yaml:3: stages[0].resources.fpga: 1.5: not a whole number"},
		{"amount negative", "{name: a, tasks: 1, builtin: noop, resources: {fpga: -1}}", "job.yaml:3: stages[0].resources.fpga: -1: must be at least 0"},
		{"bad name", "{name: a, tasks: 1, builtin: noop, resources: {Fpga.x: 1}}", "job.yaml:3: stages[0].resources: unknown key \"Fpga.x\": not cpus, memory, gpus or an accelerator's name"},
		{"typo", "{name: a, tasks: 1, builtin: noop, resources: {cpu: 1}}", "job.yaml:3: stages[0].resources: unknown key \"cpu\"; did you mean cpus?"},
		{"too many kinds", "{name: a, tasks: 1, builtin: noop, resources: {a: 1, b: 1, c: 1, d: 1, e: 1}}", "job.yaml:3: stages[0].resources: 5 accelerators: a stage may name at most 4 kinds besides gpus"},
		{"placement word", "{name: a, tasks: 1, builtin: noop, placement: spreed}", "job.yaml:3: stages[0].placement: \"spreed\": want spread, pack or {maxPerNode: N}"},
		{"placement key", "{name: a, tasks: 1, builtin: noop, placement: {maxPerNod: 1}}", "job.yaml:3: stages[0].placement: unknown key \"maxPerNod\"; did you mean maxPerNode?"},
		{"placement zero", "{name: a, tasks: 1, builtin: noop, placement: {maxPerNode: 0}}", "job.yaml:3: stages[0].placement.maxPerNode: 0: must be at least 1"},
		{"placement list", "{name: a, tasks: 1, builtin: noop, placement: [spread]}", "job.yaml:3: stages[0].placement: a list: not a mapping"},
	} {
		_, err := Parse([]byte(spec(c.stage)), "job.yaml", Defaults{})
		if err == nil || !startsWith(err.Error(), c.want) {
			t.Errorf("%s: got\n%v\nwant\n%s", c.name, err, c.want)
		}
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// A stage names at most scheduler.MaxAccelerators kinds besides gpus:
// exactly that many are taken, one more is refused naming the stage's
// resources.
func TestStageAcceleratorKindsAtTheirBound(t *testing.T) {
	kinds := func(n int) string {
		s := "gpus: 1"
		for i := range n {
			s += fmt.Sprintf(", acc%d: 1", i)
		}
		return "{name: a, tasks: 1, resources: {" + s + "}, builtin: noop}"
	}
	job, err := Parse([]byte(spec(kinds(scheduler.MaxAccelerators))), "job.yaml", Defaults{})
	if err != nil || len(job.Stages[0].Accels) != scheduler.MaxAccelerators {
		t.Fatalf("%d kinds: %v; want them taken", scheduler.MaxAccelerators, err)
	}
	_, err = Parse([]byte(spec(kinds(scheduler.MaxAccelerators+1))), "job.yaml", Defaults{})
	if err == nil || !strings.Contains(err.Error(), "stages[0].resources") || !strings.Contains(err.Error(), "at most 4 kinds") {
		t.Errorf("%d kinds: %v; want them refused, naming stages[0].resources", scheduler.MaxAccelerators+1, err)
	}
}
