package deploy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/session"
)

// A submit to a session refuses, naming each, the flags and --conf
// settings that shape a session, fixed at its start, before it reaches the
// session; a job's own settings and the client's pass.
func TestSessionSubmitRefusesWhatShapesTheSession(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("SPINDLE_CONF_DIR", t.TempDir())
	job := spec(t, oneTask)
	shipped := spec(t, "data")
	const fixed = "a session's settings are fixed at `spindle session start`"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--master", "yarn"}, "--master yarn: " + fixed},
		{[]string{"--master", "local[4]"}, "--master 'local[4]': " + fixed},
		{[]string{"--executor-gpus", "1"}, "--executor-gpus 1: " + fixed},
		{[]string{"--executor-cores", "2"}, "--executor-cores 2: " + fixed},
		{[]string{"--executor-memory", "2g"}, "--executor-memory 2g: " + fixed},
		{[]string{"--num-executors", "3"}, "--num-executors 3: " + fixed},
		{[]string{"--queue", "gpu"}, "--queue gpu: " + fixed},
		{[]string{"--conf", "spindle.dynamicAllocation.enabled=true"}, `--conf: spindle.dynamicAllocation.enabled="true": ` + fixed},
		{[]string{"--conf", "spark.scheduler.mode=FAIR"}, `--conf: spark.scheduler.mode (spindle.scheduler.mode)="FAIR": ` + fixed},
		{[]string{"--conf", "spindle.scheduler.allocation.file=" + shipped}, "spindle.scheduler.allocation.file=" + `"` + shipped + `": ` + fixed},
		{[]string{"--conf", "spindle.executorEnv.MODEL=resnet"}, `--conf: spindle.executorEnv.MODEL="resnet": ` + fixed},
		{[]string{"--no-wait"}, "--no-wait with --session: a job submitted to a session is followed to its end; --detach leaves it running"},
		{[]string{"--wait"}, "--wait with --session"},
		{[]string{"--files", shipped}, "--files with --session: a session's executors were started with the files of its `session start --files`"},
	} {
		args := append(append([]string{"submit", "--session", "local-1-abc"}, c.args...), job)
		_, _, err := runSplit(args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("spindle %s: %v; want it refused with %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	// Two at once: both named.
	_, _, err := runSplit("submit", "--session", "local-1-abc", "--queue", "gpu", "--executor-gpus", "2", job)
	if err == nil || !strings.Contains(err.Error(), "--queue gpu") || !strings.Contains(err.Error(), "--executor-gpus 2") {
		t.Errorf("two refused flags: %v, want both named", err)
	}

	// A job's own settings, and the client's, reach the session (which
	// this user has no record of).
	for _, args := range [][]string{
		{"--name", "n", "--pool", "p", "--task-cpus", "1", "--task-gpus", "0"},
		{"--conf", "spindle.task.maxFailures=2", "--conf", "spindle.log.level=debug", "--conf", "spark.app.name=n"},
		{"--detach"},
	} {
		_, _, err := runSplit(append(append([]string{"submit", "--session", "local-1-abc"}, args...), job)...)
		if err == nil || !strings.Contains(err.Error(), session.ErrNoRecord.Error()) {
			t.Errorf("spindle submit --session %s: %v; want it past the checks, to the missing record", strings.Join(args, " "), err)
		}
	}
}

// Settings of a properties file given with --properties-file that shape a
// session are not refused, the file being the environment's defaults, but
// named: nothing is silently ignored.
func TestSessionSubmitNamesTheSessionsSettingsOfAPropertiesFile(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	props := filepath.Join(t.TempDir(), "team.conf")
	if err := os.WriteFile(props, []byte("spindle.executor.cores 4\nspindle.task.cpus 2\nspindle.yarn.queue gpu\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runSplit("submit", "--session", "local-1-abc", "--properties-file", props, spec(t, oneTask))
	if err == nil || !strings.Contains(err.Error(), session.ErrNoRecord.Error()) {
		t.Errorf("err = %v; want it past the checks", err)
	}
	if want := props + ": not this job's, but the session's, fixed at its start: spindle.executor.cores, spindle.yarn.queue\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q; want %q", stderr, want)
	}
	// One such setting is named too; none, nothing is said.
	for text, want := range map[string]string{
		"spindle.yarn.queue gpu\n": props + ": not this job's, but the session's, fixed at its start: spindle.yarn.queue\n",
		"spindle.task.cpus 2\n":    "",
	} {
		if err := os.WriteFile(props, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, _ := runSplit("submit", "--session", "local-1-abc", "--properties-file", props, spec(t, oneTask))
		if want == "" && strings.Contains(stderr, "not this job's") || want != "" && !strings.Contains(stderr, want) {
			t.Errorf("a properties file of %q: stderr %q; want %q", text, stderr, want)
		}
	}
}
