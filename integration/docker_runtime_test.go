package integration

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// The Docker keys reach the executors' containers as YARN's runtime
// variables. The mini cluster's DefaultContainerExecutor has no Docker
// runtime: it ignores them and starts the process as any other, with
// the launch context's environment, so a task (which inherits its
// executor's) prints what a LinuxContainerExecutor would have read. A
// bad mount is refused before anything is submitted.
func TestDockerRuntimeVariablesReachTheExecutor(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	spec := writeSpec(t, fmt.Sprintf(`name: docker-env
stages:
  - name: s
    tasks: 1
    command: "env | grep ^YARN_CONTAINER_RUNTIME_ | sort > %[1]s.tmp; mv %[1]s.tmp %[1]s"
`, out))
	docker := []string{"--conf", "spindle.executor.instances=1",
		"--conf", "spindle.yarn.executor.docker.image=registry.example.com:5000/ml/torch:2.3",
		"--conf", "spindle.yarn.executor.docker.mounts=/etc/passwd:/etc/passwd:ro,/data:/data:rw",
		"--conf", "spindle.yarn.executor.docker.network=host"}
	o, err := spindleOn(t, c, append(append(append([]string{}, yarnArgs...), docker...), spec)...)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	want := strings.Join([]string{
		"YARN_CONTAINER_RUNTIME_DOCKER_CONTAINER_NETWORK=host",
		"YARN_CONTAINER_RUNTIME_DOCKER_IMAGE=registry.example.com:5000/ml/torch:2.3",
		"YARN_CONTAINER_RUNTIME_DOCKER_MOUNTS=/etc/passwd:/etc/passwd:ro,/data:/data:rw",
		"YARN_CONTAINER_RUNTIME_TYPE=docker",
	}, "\n") + "\n"
	if got := readFile(t, out); got != want {
		t.Errorf("the executor's container had\n%s\nwant\n%s", got, want)
	}

	bad := append(append([]string{}, yarnArgs...), "--conf", "spindle.yarn.executor.docker.image=torch",
		"--conf", "spindle.yarn.executor.docker.mounts=/data:/data", spec)
	o, err = spindleOn(t, c, bad...)
	if err == nil || !strings.Contains(o, `spindle.yarn.executor.docker.mounts: mount 1 "/data:/data": want src:dst:ro or src:dst:rw`) || submittedID.MatchString(o) {
		t.Errorf("a mount without its mode: %v\n%s", err, o)
	}
}
