package appmaster

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Executors on YARN get spindle.executorEnv and the application's part of
// the launch contract, in name order, the task log cap among them.
func TestExecutorEnvironmentOnYarn(t *testing.T) {
	env := executorEnvironment(map[string]string{"LD_LIBRARY_PATH": "/usr/local/cuda/lib64"}, executor.Launch{DriverAddress: "node-1:4000",
		AppID: "application_1_0001", GPUDiscoveryScript: "getGpus.sh", TaskLogMaxBytes: 2048, SecretFrom: "credentials"})
	var got []string
	for _, e := range env {
		got = append(got, e.GetKey()+"="+e.GetValue())
	}
	want := "LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPINDLE_APP_ID=application_1_0001 SPINDLE_DRIVER_ADDRESS=node-1:4000 " +
		"SPINDLE_EXECUTOR_GPU_DISCOVERY_SCRIPT=getGpus.sh SPINDLE_EXECUTOR_TASK_LOG_MAX_BYTES=2048 SPINDLE_SECRET_FROM=credentials"
	if strings.Join(got, " ") != want {
		t.Errorf("executor environment\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// The executors' launch context carries the Docker runtime's variables
// deploy/settings puts in ExecutorEnv, beside the launch contract, and
// the command that starts the localized binary (it runs in the image as
// outside it: the NodeManager mounts the container's directory there).
func TestExecutorLaunchContextInDocker(t *testing.T) {
	a := appMaster{Executors: &hadoopyarn.ContainerLaunchContextProto{}, Host: "am-host", ExecutorEnv: map[string]string{
		"YARN_CONTAINER_RUNTIME_TYPE":                     "docker",
		"YARN_CONTAINER_RUNTIME_DOCKER_IMAGE":             "ml/torch:2.3",
		"YARN_CONTAINER_RUNTIME_DOCKER_MOUNTS":            "/data:/data:ro",
		"YARN_CONTAINER_RUNTIME_DOCKER_CONTAINER_NETWORK": "host",
	}}
	launch := executorLaunch(a, 4000)
	env := map[string]string{}
	for _, e := range launch.GetEnvironment() {
		env[e.GetKey()] = e.GetValue()
	}
	for k, v := range a.ExecutorEnv {
		if env[k] != v {
			t.Errorf("%s=%q in the launch context, want %q", k, env[k], v)
		}
	}
	if env["SPINDLE_DRIVER_ADDRESS"] != "am-host:4000" {
		t.Errorf("driver address %q", env["SPINDLE_DRIVER_ADDRESS"])
	}
	if cmd := launch.GetCommand(); len(cmd) != 1 || !strings.Contains(cmd[0], " ./spindle executor ") {
		t.Errorf("command %q", cmd)
	}
}
