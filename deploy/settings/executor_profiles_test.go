package settings

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// In coarse mode a job's stage the default executor (spindle.executor.*)
// cannot hold gets a profile of its own shape, named by its stage in the
// submit-time check against the cluster's maximum allocation; a job the
// default holds keeps the one profile.
func TestCoarseModeStageShapes(t *testing.T) {
	conf, err := config.Load(nil, []string{"spindle.executor.resource.gpu.amount=1", "spindle.executor.memory=1g", "spindle.executor.cores=1"})
	if err != nil {
		t.Fatal(err)
	}
	job := &jobspec.Job{Stages: []jobspec.Stage{{Name: "train", CPUs: 1, GPUs: 1}, {Name: "gather", CPUs: 1, MemoryMB: 2048}}}
	profiles, stages, err := ExecutorProfiles(conf, job)
	if err != nil {
		t.Fatal(err)
	}
	want := []scheduler.Profile{{ID: 0, Cores: 1, MemoryMB: 1024, GPUs: 1}, {ID: 1, Cores: 1, MemoryMB: 2048}}
	if !reflect.DeepEqual(profiles, want) || !reflect.DeepEqual(stages, []scheduler.ProfileID{0, 1}) {
		t.Fatalf("profiles %+v stages %v; want %+v stages [0 1]", profiles, stages, want)
	}
	for i, role := range []string{"executor of stage [train]", "executor of stage [gather]"} {
		if got := ProfileRole(profiles[i], profiles, stages, job); got != role {
			t.Errorf("profile %d: %q, want %q", i, got, role)
		}
	}
	only := &jobspec.Job{Stages: []jobspec.Stage{{Name: "gather", CPUs: 1, MemoryMB: 2048}}}
	profiles, stages, _ = ExecutorProfiles(conf, only)
	if got := ProfileRole(profiles[0], profiles, stages, only); got != "executor" {
		t.Errorf("the default profile no stage needs: %q, want \"executor\"", got)
	}
	held := &jobspec.Job{Stages: []jobspec.Stage{{Name: "train", CPUs: 1, GPUs: 0.5, MemoryMB: 512}}}
	if profiles, stages, _ := ExecutorProfiles(conf, held); len(profiles) != 1 || stages != nil {
		t.Errorf("a job the default holds: %+v %v; want one profile, no stage profiles", profiles, stages)
	}
}
