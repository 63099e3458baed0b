package jobspec

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

func TestSchedulerSpec(t *testing.T) {
	job, err := Parse([]byte(`
name: resnet-inference
pool: production
stages:
  - {name: shard, tasks: 64, command: [run], resources: {cpus: 2, gpus: 0.5}, maxAttempts: 4, preferredHosts: [h1]}
  - {name: train, tasks: 2, command: [run], resources: {gpus: 2}}
  - {name: merge, after: [shard, train], tasks: 1, command: [run]}
`), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := job.SchedulerSpec(3)
	if err != nil {
		t.Fatal(err)
	}
	half, err := scheduler.ParseGPURequest("gpus", 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := scheduler.JobSpec{Name: "resnet-inference", Pool: "production", Stages: []scheduler.StageSpec{
		{Name: "shard", Tasks: 64, Profile: 3, Request: scheduler.TaskRequest{CPUs: 2, GPU: half}, MaxAttempts: 4, PreferredHosts: []string{"h1"}},
		{Name: "train", Tasks: 2, Profile: 3, Request: scheduler.TaskRequest{CPUs: 1, GPU: scheduler.WholeGPUs(2)}},
		{Name: "merge", After: []string{"shard", "train"}, Tasks: 1, Profile: 3, Request: scheduler.TaskRequest{CPUs: 1}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SchedulerSpec =\n%+v\nwant\n%+v", got, want)
	}

	got.Stages[2].After[0] = "changed"
	if job.Stages[2].After[0] != "shard" {
		t.Error("the scheduler's spec shares After with the Job")
	}
}

func TestSchedulerSpecOfAJobByHand(t *testing.T) {
	job := &Job{Name: "j", Stages: []Stage{{Name: "a", Tasks: 1, CPUs: 1, GPUs: 2.5}}}
	if _, err := job.SchedulerSpec(0); err == nil || err.Error() != "stage a: gpus: 2.5: above 1 a GPU amount must be whole (tasks share a GPU only below 1)" {
		t.Errorf("SchedulerSpec with 2.5 GPUs: %v", err)
	}
}
