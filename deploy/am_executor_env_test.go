package deploy

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// Executors on YARN get spindle.executorEnv and the launch variables, in
// name order, the task log cap among them.
func TestExecutorEnvironmentOnYarn(t *testing.T) {
	conf, err := config.Load(nil, []string{"spark.executorEnv.LD_LIBRARY_PATH=/usr/local/cuda/lib64", "spindle.task.log.maxBytes=2k",
		"spindle.executor.resource.gpu.discoveryScript=getGpus.sh"})
	if err != nil {
		t.Fatal(err)
	}
	env, err := executorEnvironment(conf, "node-1:4000", "application_1_0001")
	if err != nil {
		t.Fatal(err)
	}
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
