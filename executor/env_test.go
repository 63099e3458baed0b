package executor

import (
	"slices"
	"testing"

	"github.com/spindle-yarn/spindle/executor/taskenv"
)

func TestTaskEnvironment(t *testing.T) {
	id := TaskIdentity{AppID: "application_1_0001", Job: "resnet", Stage: "shard", Index: 3, Count: 64, Attempt: 1, ExecutorID: "7", Host: "node-2"}
	got := TaskEnvironment(id, []string{"1", "3"}, "/logs/r.json", "/logs/p")
	want := []string{
		"SPINDLE_APP_ID=application_1_0001", "SPINDLE_JOB=resnet", "SPINDLE_STAGE=shard",
		"SPINDLE_TASK_INDEX=3", "SPINDLE_TASK_COUNT=64", "SPINDLE_ATTEMPT=1",
		"SPINDLE_EXECUTOR_ID=7", "SPINDLE_HOST=node-2",
		"CUDA_VISIBLE_DEVICES=1,3", "SPINDLE_GPU_ADDRESSES=1,3", "SPINDLE_RESOURCES_FILE=/logs/r.json",
		"SPINDLE_PREEMPTED_FILE=/logs/p",
	}
	if !slices.Equal(got, want) {
		t.Errorf("TaskEnvironment =\n%q\nwant\n%q", got, want)
	}
	none := TaskEnvironment(id, nil, "/r.json", "/p")
	if !slices.Contains(none, "CUDA_VISIBLE_DEVICES=") || !slices.Contains(none, "SPINDLE_GPU_ADDRESSES=") {
		t.Errorf("without GPUs: %q; want both GPU variables set and empty", none)
	}
}

// A task inherits its container's environment, but not Spindle's launch
// variables nor the executor's GPU visibility, which names all of the
// executor's GPUs.
func TestInheritedEnvironmentDropsOnlyReservedVariables(t *testing.T) {
	got := InheritedEnvironment([]string{"PATH=/bin", "CONTAINER_ID=container_1_0001_01_000002", "NM_HOST=node-1",
		"LOCAL_DIRS=/d1,/d2", "LOG_DIRS=/l", "LD_LIBRARY_PATH=/usr/local/cuda/lib64", "SPINDLE_DRIVER_ADDRESS=h:1",
		"SPINDLE_SECRET_FROM=credentials", "CUDA_VISIBLE_DEVICES=0,1", "NVIDIA_VISIBLE_DEVICES=0,1",
		"HIP_VISIBLE_DEVICES=0", "ROCR_VISIBLE_DEVICES=0", "HADOOP_TOKEN_FILE_LOCATION=/t", "SPINDLE=x"})
	want := []string{"PATH=/bin", "CONTAINER_ID=container_1_0001_01_000002", "NM_HOST=node-1", "LOCAL_DIRS=/d1,/d2",
		"LOG_DIRS=/l", "LD_LIBRARY_PATH=/usr/local/cuda/lib64", "HADOOP_TOKEN_FILE_LOCATION=/t", "SPINDLE=x"}
	if !slices.Equal(got, want) {
		t.Errorf("InheritedEnvironment =\n%q\nwant\n%q", got, want)
	}
	for _, name := range []string{"SPINDLE_JOB", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"} {
		if !taskenv.Reserved(name) {
			t.Errorf("%s is not reserved", name)
		}
	}
	for _, name := range []string{"PATH", "LD_LIBRARY_PATH", "SPINDLEX", "CUDA_HOME"} {
		if taskenv.Reserved(name) {
			t.Errorf("%s is reserved", name)
		}
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
