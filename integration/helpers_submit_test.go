package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Helpers: job specs, the submission arguments tests share, and what
// `spindle submit` prints of the application it submitted.

// writeSpec writes spec, a job spec's YAML, to the test's directory and
// returns its path.
func writeSpec(t *testing.T, spec string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// localArgs runs on 2 executors of 4 cores and 2 fake GPUs each.
var localArgs = []string{"submit", "--master", "local[2]", "--conf", "spindle.worker.resource.gpu.addresses=0,1,2,3",
	"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.cores=4"}

// yarnArgs are a small application's: two executors of two cores.
var yarnArgs = []string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=2", "--conf", "spindle.executor.cores=2",
	"--conf", "spindle.executor.memory=512m"}

// submittedID finds the application id in what `spindle submit` prints.
var submittedID = regexp.MustCompile(`submitted (application_\d+_\d+)`)
