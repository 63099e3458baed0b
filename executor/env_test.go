package executor

import (
	"slices"
	"testing"
)

func TestTaskEnvironment(t *testing.T) {
	id := TaskIdentity{AppID: "application_1_0001", Job: "resnet", Stage: "shard", Index: 3, Count: 64, Attempt: 1, ExecutorID: "7", Host: "node-2"}
	got := TaskEnvironment(id, []string{"1", "3"}, "/logs/r.json")
	want := []string{
		"SPINDLE_APP_ID=application_1_0001", "SPINDLE_JOB=resnet", "SPINDLE_STAGE=shard",
		"SPINDLE_TASK_INDEX=3", "SPINDLE_TASK_COUNT=64", "SPINDLE_ATTEMPT=1",
		"SPINDLE_EXECUTOR_ID=7", "SPINDLE_HOST=node-2",
		"CUDA_VISIBLE_DEVICES=1,3", "SPINDLE_GPU_ADDRESSES=1,3", "SPINDLE_RESOURCES_FILE=/logs/r.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("TaskEnvironment =\n%q\nwant\n%q", got, want)
	}
	none := TaskEnvironment(id, nil, "/r.json")
	if !slices.Contains(none, "CUDA_VISIBLE_DEVICES=") || !slices.Contains(none, "SPINDLE_GPU_ADDRESSES=") {
		t.Errorf("without GPUs: %q; want both GPU variables set and empty", none)
	}
}

func TestBaseEnvironmentIsAnAllowList(t *testing.T) {
	got := BaseEnvironment(envOf("PATH=/bin", "HOME=/h", "TZ=UTC", "SPINDLE_SECRET=s", "HADOOP_TOKEN_FILE_LOCATION=/t", "LD_PRELOAD=x"))
	want := []string{"PATH=/bin", "HOME=/h", "TZ=UTC"}
	if !slices.Equal(got, want) {
		t.Errorf("BaseEnvironment = %q, want %q", got, want)
	}
}

func TestMergeEnvironment(t *testing.T) {
	got, err := mergeEnvironment([]string{"PATH=/bin", "HOME=/h"}, []string{"MODEL=a", "PATH=/opt/bin", "X=1=2", "MODEL=b", "EMPTY="})
	want := []string{"PATH=/opt/bin", "HOME=/h", "MODEL=b", "X=1=2", "EMPTY="}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("mergeEnvironment = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"NOVALUE", "=x"} {
		_, err := mergeEnvironment(nil, []string{bad})
		wantErr(t, err, bad, "not KEY=VALUE")
	}
}
