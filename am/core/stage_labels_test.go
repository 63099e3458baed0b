package core_test

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage naming a node label or a placement runs on YARN only on
// executors asked with them: a session on YARN, whose executors carry
// neither, adds a profile of the default's shape with the stage's label
// and placement (a stage the default cannot hold gets its stage shape
// with them), shared by later stages asking the same; a local one (no
// containers, no nodes) runs them on its executors.
func TestSessionAddsProfilesForLabelledAndPlacedStages(t *testing.T) {
	stage := func(name, label string, p scheduler.Placement, gpus float64) jobspec.Stage {
		return jobspec.Stage{Name: name, Tasks: 1, CPUs: 1, GPUs: gpus, Command: []string{"true"}, NodeLabel: label, Placement: p}
	}
	spread := scheduler.Placement{Affinity: scheduler.Spread}
	job := &jobspec.Job{Name: "j", Source: "test", Stages: []jobspec.Stage{
		stage("labelled", "gpu-t4", scheduler.Placement{}, 0),
		stage("spread", "gpu-t4", spread, 0),
		stage("again", "gpu-t4", spread, 0),
		stage("gang", "", scheduler.Placement{MaxPerNode: 1}, 2),
	}}
	yarnSession, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 1}, MaxGPUsPerNode: 4}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := yarnSession.Core.Submit(yarnSession.Now, job, nil)
	if err != nil {
		t.Fatalf("a YARN session refused labelled and placed stages: %v", err)
	}
	got := yarnSession.Core.StageShapes(id)
	want := []scheduler.Profile{
		{ID: 1, Cores: 1, NodeLabel: "gpu-t4"},
		{ID: 2, Cores: 1, NodeLabel: "gpu-t4", Placement: spread},
		{ID: 2, Cores: 1, NodeLabel: "gpu-t4", Placement: spread},
		{ID: 3, Cores: 1, GPUs: 2, Placement: scheduler.Placement{MaxPerNode: 1}},
	}
	if len(got) != len(want) {
		t.Fatalf("stage shapes %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stage %s runs on %+v, want %+v", job.Stages[i].Name, got[i], want[i])
		}
	}
	local := newSession(t, 1, core.SessionLimits{})
	job.Stages = job.Stages[:3]
	if id, err := local.Core.Submit(local.Now, job, nil); err != nil || len(local.Core.StageShapes(id)) != 3 || local.Core.StageShapes(id)[1].ID != 0 {
		t.Errorf("a local session: %v, stages on %+v; want every stage on its executors", err, local.Core.StageShapes(id))
	}
}
