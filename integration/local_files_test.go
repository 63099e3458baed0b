package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// submitIn runs `spindle submit` with TMPDIR set to tmp and extra
// environment variables.
func submitIn(t *testing.T, tmp string, env []string, args ...string) (string, error) {
	t.Helper()
	return runSpindle(context.Background(), t, append(append(os.Environ(), "TMPDIR="+tmp), env...), args...)
}

var taskLogs = regexp.MustCompile(`(?m)^  task logs: (.*)$`)

// Task logs live in a private per-user directory, each stream keeps its
// tail within spindle.task.log.maxBytes, and the summary says which were
// cut.
func TestLocalTaskLogsArePrivateAndCapped(t *testing.T) {
	tmp := t.TempDir()
	spec := writeSpec(t, `name: chatty
stages:
  - name: s
    tasks: 2
    command: "if [ $SPINDLE_TASK_INDEX = 0 ]; then seq 1 3000; else head -c 2048 /dev/zero | tr '\\0' x; fi"
`)
	o, err := submitIn(t, tmp, nil, append(localArgs, "--conf", "spindle.task.log.maxBytes=2k", spec)...)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	m := taskLogs.FindStringSubmatch(o)
	if m == nil {
		t.Fatalf("no task logs line:\n%s", o)
	}
	user := filepath.Join(tmp, "spindle-"+strconv.Itoa(os.Geteuid()))
	if filepath.Dir(m[1]) != user {
		t.Errorf("task logs in %s, want under %s", m[1], user)
	}
	if fi, err := os.Stat(user); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v %v, want mode 0700", user, fi.Mode(), err)
	}
	cut, _ := filepath.Glob(filepath.Join(m[1], "*", "job0-stage0-task0-attempt0.stdout"))
	whole, _ := filepath.Glob(filepath.Join(m[1], "*", "job0-stage0-task1-attempt0.stdout"))
	if len(cut) != 1 || len(whole) != 1 {
		t.Fatalf("stdout files %q %q", cut, whole)
	}
	b, _ := os.ReadFile(cut[0])
	if len(b) > 2048 || !strings.HasPrefix(string(b), "[spindle: the first ") || !strings.HasSuffix(string(b), "\n2999\n3000\n") {
		t.Errorf("seq 1 3000 capped at 2k kept %d bytes: %.80q … %q", len(b), b, b[max(len(b)-20, 0):])
	}
	if b, _ := os.ReadFile(whole[0]); string(b) != strings.Repeat("x", 2048) {
		t.Errorf("output exactly at the cap was not kept whole: %d bytes", len(b))
	}
	if !strings.Contains(o, "output cut to its tail (spindle.task.log.maxBytes) in 1 file(s)") || !strings.Contains(o, "job0-stage0-task0-attempt0.stdout") {
		t.Errorf("the summary does not say which output was cut:\n%s", o)
	}
}

// A per-user directory that is a symbolic link is refused.
func TestLocalRefusesAnUntrustedUserDirectory(t *testing.T) {
	tmp := t.TempDir()
	os.Symlink(t.TempDir(), filepath.Join(tmp, "spindle-"+strconv.Itoa(os.Geteuid())))
	o, err := submitIn(t, tmp, nil, append(localArgs, "--tasks", "1", "--", "true")...)
	if err == nil || !strings.Contains(o, "is a symbolic link") {
		t.Errorf("submit over a symlinked directory: %v\n%s", err, o)
	}
}

// Locally a task sees the submitter's environment, then
// spindle.executorEnv, then its job spec's env, each over the one before;
// never Spindle's launch variables.
func TestLocalTaskEnvironmentLayers(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	spec := writeSpec(t, fmt.Sprintf(`name: env
stages:
  - name: s
    tasks: 1
    env: {FROM_SPEC: spec, OVERRIDDEN_BY_SPEC: spec}
    command: "env > %s"
`, out))
	o, err := submitIn(t, t.TempDir(), []string{"FROM_SUBMITTER=submitter", "OVERRIDDEN_BY_EXECUTOR_ENV=submitter", "OVERRIDDEN_BY_SPEC=submitter"},
		append(localArgs, "--conf", "spindle.executorEnv.OVERRIDDEN_BY_EXECUTOR_ENV=executorEnv", "--conf", "spindle.executorEnv.OVERRIDDEN_BY_SPEC=executorEnv", spec)...)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := string(b)
	for _, want := range []string{"FROM_SUBMITTER=submitter", "OVERRIDDEN_BY_EXECUTOR_ENV=executorEnv", "OVERRIDDEN_BY_SPEC=spec", "FROM_SPEC=spec", "SPINDLE_TASK_INDEX=0"} {
		if !strings.Contains("\n"+env, "\n"+want+"\n") {
			t.Errorf("the task's environment lacks %s", want)
		}
	}
	for _, internal := range []string{"SPINDLE_DRIVER_ADDRESS", "SPINDLE_SECRET_FROM", "SPINDLE_EXECUTOR_LOG_DIR", "SPINDLE_EXECUTOR_GPU_ADDRESSES"} {
		if strings.Contains(env, internal+"=") {
			t.Errorf("the task sees %s", internal)
		}
	}
}
