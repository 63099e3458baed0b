package am

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor"
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
