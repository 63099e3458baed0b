package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Helpers: running minicluster.sh itself, on a cluster of the test's own.

// scriptEnv is the environment minicluster.sh runs in for a cluster of
// the test's own: free ports, one NodeManager of 2 GPUs, and extra.
func scriptEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	ports, err := testcluster.PortEnv()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), ports...)
	// Owned by this test process unless extra says otherwise (a later
	// duplicate key wins), so a killed test leaves no cluster behind.
	env = append(env, "NODEMANAGERS=1", "GPUS_PER_NODE=2", "MINICLUSTER_OWNER_PID="+strconv.Itoa(os.Getpid()))
	return append(env, extra...)
}

// script runs minicluster.sh with args in env, returning its output.
func script(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(testcluster.Script(), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startOrFail starts a cluster in dir, and makes sure it is stopped however
// the test ends.
func startOrFail(t *testing.T, dir string, env []string) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("tail of the logs in %s:\n%s", dir, testcluster.LogTail(dir, 30))
		}
		script(t, env, "stop", dir)
	})
	printed, err := testcluster.Start(dir, env)
	if err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("the mini cluster did not start (with CI=true this fails): %v", err)
		}
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "conf"); printed["HADOOP_CONF_DIR"] != want {
		t.Fatalf("start printed HADOOP_CONF_DIR=%s as its last line, want %s", printed["HADOOP_CONF_DIR"], want)
	}
}
