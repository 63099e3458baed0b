package integration

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// A task on YARN sees what a process of its container would: the
// NodeManager's variables, its whitelist's, spindle.executorEnv; never the
// application secret, in its environment or in any file its environment
// names or its working directory holds. Its stdout lands in the
// container's log directory, where log aggregation looks.
func TestYarnTaskSeesItsContainersEnvironment(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-env
stages:
  - name: s
    tasks: 1
    command: "env > %[1]s/env.tmp; mv %[1]s/env.tmp %[1]s/env; echo marker-$SPINDLE_TASK_INDEX; until [ -e %[1]s/release ]; do sleep 0.1; done"
`, dir))
	cmd, out := startOn(t, c, append(yarnArgs, "--conf", "spindle.executorEnv.MODEL_DIR=/models", spec)...)
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var env string
	for deadline := time.Now().Add(2 * time.Minute); env == ""; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, "env"))
		env = string(b)
		if env == "" && time.Now().After(deadline) {
			t.Fatalf("the task never ran\n%s", out.String())
		}
	}
	app := envValue(env, "SPINDLE_APP_ID")

	// The secret, from the ApplicationMaster's own credentials file.
	amTokens := envValue(environ(amProcess(t, app)), credentials.EnvTokenFile)
	amCreds, err := credentials.ReadFile(amTokens)
	if err != nil {
		t.Fatal(err)
	}
	secret, ok := amCreds.FindSecret(executor.SecretAlias)
	if !ok || len(secret) == 0 {
		t.Fatalf("%s holds no application secret", amTokens)
	}
	forms := [][]byte{secret, []byte(hex.EncodeToString(secret)), []byte(base64.StdEncoding.EncodeToString(secret))}
	holdsSecret := func(b []byte) bool {
		for _, f := range forms {
			if bytes.Contains(b, f) {
				return true
			}
		}
		return false
	}

	for _, k := range []string{"CONTAINER_ID", "NM_HOST", "NM_PORT", "NM_HTTP_PORT", "LOCAL_DIRS", "LOG_DIRS", "PWD"} {
		if envValue(env, k) == "" {
			t.Errorf("the task's environment has no %s", k)
		}
	}
	if envValue(env, "MODEL_DIR") != "/models" {
		t.Errorf("spindle.executorEnv.MODEL_DIR did not reach the task")
	}
	for _, k := range []string{"SPINDLE_DRIVER_ADDRESS", "SPINDLE_SECRET_FROM", "SPINDLE_EXECUTOR_LOG_DIR", "SPINDLE_EXECUTOR_AM_GPU_INDICES"} {
		if envValue(env, k) != "" {
			t.Errorf("the task sees the launch variable %s", k)
		}
	}
	if holdsSecret([]byte(env)) {
		t.Errorf("the task's environment holds the application secret")
	}
	// Every file its environment names, and every file in its working
	// directory (the container's, with the NodeManager's credentials file).
	files := map[string]bool{}
	for _, line := range strings.Split(env, "\n") {
		_, v, _ := strings.Cut(line, "=")
		for _, p := range strings.Split(v, ":") {
			if filepath.IsAbs(p) {
				files[p] = true
			}
		}
	}
	entries, err := os.ReadDir(envValue(env, "PWD"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files[filepath.Join(envValue(env, "PWD"), e.Name())] = true
	}
	checked := 0
	for p := range files {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > 64<<20 {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		checked++
		if holdsSecret(b) {
			t.Errorf("%s, which the task can read, holds the application secret", p)
		}
	}
	if tokens := envValue(env, credentials.EnvTokenFile); tokens != "" {
		if _, err := credentials.ReadFile(tokens); err != nil {
			t.Errorf("the task's %s is no credentials file: %v", credentials.EnvTokenFile, err)
		}
	}
	t.Logf("checked %d files for the secret", checked)

	os.WriteFile(filepath.Join(dir, "release"), nil, 0o644)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job failed: %v\n%s", err, out.String())
	}
	logDir := strings.Split(envValue(env, "LOG_DIRS"), ",")[0]
	if !strings.Contains(logDir, "/"+app+"/"+envValue(env, "CONTAINER_ID")) {
		t.Errorf("LOG_DIRS %s is not the container's log directory under its application's", logDir)
	}
	if b, err := os.ReadFile(filepath.Join(logDir, "job0-stage0-task0-attempt0.stdout")); err != nil || string(b) != "marker-0\n" {
		t.Errorf("the task's stdout in its container's log directory: %q, %v", b, err)
	}
}
