package settings

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage naming a node label gets a profile of its own with that label,
// shared by the stages of its shape and label; in coarse mode without
// dynamic allocation each profile a stage runs on starts with
// spindle.executor.instances executors, and none goes to a profile no
// stage uses.
func TestStageNodeLabelsGetProfilesOfTheirOwn(t *testing.T) {
	job, err := jobspec.Parse([]byte(`name: j
stages:
  - {name: a, tasks: 1, command: "true", nodeLabel: gpu-a100}
  - {name: b, tasks: 1, command: "true", nodeLabel: gpu-t4}
  - {name: c, tasks: 1, command: "true", nodeLabel: gpu-a100}
`), "j.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	conf, err := config.Load(nil, []string{"spindle.executor.instances=3"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, stages, err := Core(conf, CoreFor{Job: job, Containers: true})
	if err != nil {
		t.Fatal(err)
	}
	labels := map[scheduler.ProfileID]string{}
	for _, p := range cfg.Profiles {
		labels[p.ID] = p.NodeLabel
		if int(p.ID) >= len(cfg.Profiles) || cfg.Profiles[p.ID].ID != p.ID {
			t.Errorf("profile ids are not their indices: %+v", cfg.Profiles)
		}
	}
	if len(stages) != 3 || labels[stages[0]] != "gpu-a100" || labels[stages[1]] != "gpu-t4" || stages[2] != stages[0] || stages[0] == stages[1] {
		t.Fatalf("stages' profiles %v of %+v: want a's and c's labelled gpu-a100, b's gpu-t4", stages, cfg.Profiles)
	}
	want := map[scheduler.ProfileID]int{stages[0]: 3, stages[1]: 3}
	if len(cfg.Containers.Initial) != 2 || cfg.Containers.Initial[stages[0]] != 3 || cfg.Containers.Initial[stages[1]] != 3 {
		t.Errorf("initial executors %v, want %v (none for the unlabelled profile 0)", cfg.Containers.Initial, want)
	}
	// Dynamic allocation sizes each profile by its own rules: the
	// initial executors stay as they were, the first profile's.
	dyn, err := config.Load(nil, []string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.initialExecutors=1"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err = Core(dyn, CoreFor{Job: job, Containers: true})
	if _, first := cfg.Containers.Initial[0]; err != nil || len(cfg.Containers.Initial) != 1 || !first {
		t.Errorf("dynamic allocation: initial %v, %v; want the first profile's alone, as without labels", cfg.Containers.Initial, err)
	}
	// Without labels nothing changes: one profile, no stage profiles.
	plain, _ := jobspec.Short("p", 1, []string{"true"}, jobspec.Defaults{})
	cfg, stages, err = Core(conf, CoreFor{Job: plain, Containers: true})
	if err != nil || len(cfg.Profiles) != 1 || stages != nil || cfg.Containers.Initial[0] != 3 {
		t.Errorf("no labels: %+v %v %v", cfg.Profiles, stages, err)
	}
}

// A stage naming a placement gets a profile of its own, as a labelled one
// does, though the default holds its tasks; a stage naming accelerators
// the default lacks gets a stage shape holding them. In one job a spread
// gang, a packed CPU stage and an FPGA stage so run on three profiles,
// and the FPGA's YARN resource type is known though no executor key
// names it.
func TestStagePlacementsAndAcceleratorsGetProfilesOfTheirOwn(t *testing.T) {
	job, err := jobspec.Parse([]byte(`name: j
stages:
  - {name: gang, tasks: 2, gang: true, resources: {gpus: 1}, placement: {maxPerNode: 1}, command: "true"}
  - {name: load, tasks: 2, placement: pack, command: "true"}
  - {name: fpga, tasks: 1, resources: {fpga: 2}, command: "true"}
  - {name: plain, tasks: 1, command: "true"}
`), "j.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	conf, err := config.Load(nil, []string{"spindle.executor.instances=2", "spindle.executor.cores=1", "spindle.executor.memory=512m"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, stages, err := Core(conf, CoreFor{Job: job, Containers: true})
	if err != nil {
		t.Fatal(err)
	}
	fpga, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2})
	want := []scheduler.Profile{
		{ID: 1, Cores: 1, MemoryMB: 512, GPUs: 1, Placement: scheduler.Placement{MaxPerNode: 1}},
		{ID: 3, Cores: 1, MemoryMB: 512, Placement: scheduler.Placement{Affinity: scheduler.Pack}},
		{ID: 2, Cores: 1, MemoryMB: 512, Accels: fpga},
		{ID: 0, Cores: 1, MemoryMB: 512},
	}
	for i, w := range want {
		if got := cfg.Profiles[stages[i]]; got != w {
			t.Errorf("stage %s runs on %+v, want %+v", job.Stages[i].Name, got, w)
		}
	}
	types, err := ResourceTypes(conf, job)
	if err != nil || types["fpga"] != "yarn.io/fpga" {
		t.Errorf("resource types %v (%v), want fpga's for the stage that names it", types, err)
	}
}
