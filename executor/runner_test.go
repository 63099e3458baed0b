package executor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// run starts argv with output to files in a fresh directory, waits, and
// returns the result and the stdout and stderr text.
func run(t *testing.T, spec TaskSpec) (Result, string, string) {
	t.Helper()
	dir := t.TempDir()
	if spec.StdoutPath == "" {
		spec.StdoutPath = filepath.Join(dir, "out")
	}
	if spec.StderrPath == "" {
		spec.StderrPath = filepath.Join(dir, "err")
	}
	task, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	res := task.Wait()
	out, _ := os.ReadFile(spec.StdoutPath)
	errOut, _ := os.ReadFile(spec.StderrPath)
	return res, string(out), string(errOut)
}

func sh(script string) []string { return []string{"sh", "-c", script} }

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		script string
		code   int
		signal string
	}{
		{"exit 0", 0, ""},
		{"exit 3", 3, ""},
		{"kill -KILL $$", 137, "SIGKILL"},
		{"kill -SEGV $$", 139, "SIGSEGV"},
		{"kill -TERM $$", 143, "SIGTERM"},
	} {
		res, _, _ := run(t, TaskSpec{Argv: sh(c.script)})
		if res.ExitCode != c.code || res.Signal != c.signal || res.Err != nil {
			t.Errorf("%q: exit %d signal %q err %v; want %d %q", c.script, res.ExitCode, res.Signal, res.Err, c.code, c.signal)
		}
		if res.Start.IsZero() || res.End.Before(res.Start) {
			t.Errorf("%q: start %v end %v", c.script, res.Start, res.End)
		}
	}
}

func TestStartErrors(t *testing.T) {
	_, err := Start(TaskSpec{Argv: []string{"spindle-no-such-command"}})
	wantErr(t, err, `exec: "spindle-no-such-command": executable file not found in $PATH`)
	_, err = Start(TaskSpec{Argv: []string{"/nonexistent/bin/x"}})
	wantErr(t, err, "/nonexistent/bin/x", "no such file or directory")
	_, err = Start(TaskSpec{})
	wantErr(t, err, "no command")
	_, err = Start(TaskSpec{Argv: []string{"true"}, Env: []string{"JUNK"}})
	wantErr(t, err, `"JUNK" is not KEY=VALUE`)
	_, err = Start(TaskSpec{Argv: []string{"true"}, Dir: "/nonexistent"})
	wantErr(t, err, "task working directory", "/nonexistent", "no such file")
}

func TestOutputFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs", "stage-0")
	out, errPath := filepath.Join(dir, "task-0.stdout"), filepath.Join(dir, "task-0.stderr")
	res, stdout, stderr := run(t, TaskSpec{Argv: sh("echo to-out; echo to-err >&2"), StdoutPath: out, StderrPath: errPath})
	if res.ExitCode != 0 || stdout != "to-out\n" || stderr != "to-err\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, stdout, stderr)
	}
	for _, p := range []string{out, errPath} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v; want mode 0644", p, fi.Mode(), err)
		}
	}
	// One file for both streams keeps both, and stdin is empty.
	both := filepath.Join(dir, "both")
	_, text, _ := run(t, TaskSpec{Argv: sh("echo a; echo b >&2; cat; echo c"), StdoutPath: both, StderrPath: both})
	if text != "a\nb\nc\n" {
		t.Errorf("shared file = %q, want a b c", text)
	}
}

func TestWorkingDirectory(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	_, out, _ := run(t, TaskSpec{Argv: []string{"pwd"}, Dir: dir})
	if strings.TrimSpace(out) != dir {
		t.Errorf("pwd = %q, want %q", out, dir)
	}
}

// The task sees the allow-listed variables, the job's, and its own: never
// the executor's secrets. It runs `env` and we read what it saw.
func TestTaskSeesExactlyItsEnvironment(t *testing.T) {
	t.Setenv("SPINDLE_SECRET_TEST", "hunter2")
	t.Setenv("HADOOP_TOKEN_FILE_LOCATION", "/container/tokens")
	t.Setenv("SPINDLE_EXECUTOR_GPU_ADDRESSES", "0,1,2,3")
	t.Setenv("LANG", "C.UTF-8")
	dir := t.TempDir()
	resFile := filepath.Join(dir, "resources.json")
	gpus := []string{"1", "3"}
	if err := WriteTaskResourcesFile(resFile, gpus); err != nil {
		t.Fatal(err)
	}
	id := TaskIdentity{AppID: "app-1", Job: "j", Stage: "s", Index: 2, Count: 4, Attempt: 0, ExecutorID: "e1", Host: "h"}
	jobEnv := []string{"MODEL=resnet50", "CUDA_VISIBLE_DEVICES=0,1,2,3"} // the task's own value must win
	task := TaskEnvironment(id, gpus, resFile)
	res, out, stderr := run(t, TaskSpec{Argv: []string{"env"}, Env: append(jobEnv, task...)})
	if res.ExitCode != 0 {
		t.Fatalf("env: exit %d: %s", res.ExitCode, stderr)
	}
	seen := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		k, v, _ := strings.Cut(line, "=")
		if _, dup := seen[k]; dup {
			t.Errorf("%s set twice", k)
		}
		seen[k] = v
	}
	allowed := slices.Concat(baseEnvironmentKeys, []string{"MODEL"})
	for _, kv := range task {
		k, v, _ := strings.Cut(kv, "=")
		allowed = append(allowed, k)
		if seen[k] != v {
			t.Errorf("%s = %q, want %q", k, seen[k], v)
		}
	}
	for k := range seen {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s leaked into the task", k)
		}
	}
	if seen["CUDA_VISIBLE_DEVICES"] != "1,3" || seen["MODEL"] != "resnet50" || seen["PATH"] != os.Getenv("PATH") || seen["LANG"] != "C.UTF-8" {
		t.Errorf("CUDA_VISIBLE_DEVICES=%q MODEL=%q PATH=%q LANG=%q", seen["CUDA_VISIBLE_DEVICES"], seen["MODEL"], seen["PATH"], seen["LANG"])
	}

	// The task can read its resources file in Spark's map form.
	_, out, _ = run(t, TaskSpec{Argv: sh(`cat "$SPINDLE_RESOURCES_FILE"`), Env: task})
	var m map[string]struct {
		Name      string   `json:"name"`
		Addresses []string `json:"addresses"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || m["gpu"].Name != "gpu" || !slices.Equal(m["gpu"].Addresses, gpus) {
		t.Errorf("resources file %q (%v); want gpu addresses %q", out, err, gpus)
	}
}

func startGroup(t *testing.T, script string, members int) (*Task, []int) {
	t.Helper()
	task, err := Start(TaskSpec{Argv: sh(script)})
	if err != nil {
		t.Fatal(err)
	}
	return task, waitGroupSize(t, task.pgid, members)
}

// Kill reaches a background grandchild, not only the process it started.
func TestKillKillsTheWholeGroup(t *testing.T) {
	task, pids := startGroup(t, "sleep 1000 & wait", 2)
	start := time.Now()
	task.Kill(5 * time.Second)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Kill took %v though SIGTERM ends the group at once", d)
	}
	res := task.Wait()
	if res.Signal != "SIGTERM" || res.ExitCode != 143 {
		t.Errorf("killed task: exit %d signal %q; want 143 SIGTERM", res.ExitCode, res.Signal)
	}
	waitGone(t, pids)
	if left := groupMembers(task.pgid); len(left) > 0 {
		t.Errorf("process group %d still has %v", task.pgid, left)
	}
}

// A leader that ignores SIGTERM gets SIGKILL after the grace period, and
// SIGTERM went to the whole group: a subshell notes that it received it.
func TestKillEscalatesAfterGrace(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "term")
	task, pids := startGroup(t, `(trap "echo > `+marker+`; exit 0" TERM; sleep 1000 & wait) & trap "" TERM; sleep 1000 & wait`, 4)
	start := time.Now()
	task.Kill(200 * time.Millisecond)
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("Kill returned after %v, before the grace period", d)
	}
	if res := task.Wait(); res.Signal != "SIGKILL" || res.ExitCode != 137 {
		t.Errorf("exit %d signal %q; want 137 SIGKILL", res.ExitCode, res.Signal)
	}
	waitGone(t, pids)
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the subshell did not get SIGTERM: %v", err)
	}
}

// What a task leaves running in its group dies with it.
func TestExitKillsLeftovers(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	res, _, _ := run(t, TaskSpec{Argv: sh("sleep 1000 & echo $! > " + pidFile + "; exit 5")})
	if res.ExitCode != 5 {
		t.Fatalf("exit %d, want 5", res.ExitCode)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(data)), &pid); err != nil {
		t.Fatal(err)
	}
	waitGone(t, []int{pid})
}

func TestKillAfterExitAndTwice(t *testing.T) {
	task, err := Start(TaskSpec{Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	first := task.Wait()
	start := time.Now()
	task.Kill(time.Minute)
	task.Kill(time.Minute)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Kill after exit took %v", d)
	}
	if again := task.Wait(); again != first || first.ExitCode != 0 {
		t.Errorf("Wait after Kill = %+v, want the first result %+v", again, first)
	}

	// Two Kills racing on a running task both return once it is gone.
	task, _ = startGroup(t, "sleep 1000", 1)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { task.Kill(time.Second) })
	}
	wg.Wait()
	if res := task.Wait(); res.Signal != "SIGTERM" {
		t.Errorf("signal %q, want SIGTERM", res.Signal)
	}
}
