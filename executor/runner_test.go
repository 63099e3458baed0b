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
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&^0o644 != 0 {
			t.Errorf("%s: %v %v; want mode 0644 or less (umask)", p, fi.Mode(), err)
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

// The task sees its executor's environment, the job's variables and its
// own, but none of the executor's launch variables, nor its GPU
// visibility. It runs `env` and we read what it saw.
func TestTaskSeesExactlyItsEnvironment(t *testing.T) {
	t.Setenv("SPINDLE_SECRET_FROM", "credentials")
	t.Setenv("SPINDLE_EXECUTOR_GPU_ADDRESSES", "0,1,2,3")
	t.Setenv("NVIDIA_VISIBLE_DEVICES", "0,1,2,3")
	t.Setenv("CONTAINER_ID", "container_1_0001_01_000002")
	t.Setenv("LANG", "C.UTF-8")
	dir := t.TempDir()
	resFile := filepath.Join(dir, "resources.json")
	gpus := []string{"1", "3"}
	if err := WriteTaskResourcesFile(resFile, gpus, nil); err != nil {
		t.Fatal(err)
	}
	id := TaskIdentity{AppID: "app-1", Job: "j", Stage: "s", Index: 2, Count: 4, Attempt: 0, ExecutorID: "e1", Host: "h"}
	jobEnv := []string{"MODEL=resnet50", "LANG=en_GB.UTF-8"}
	task := TaskEnvironment(id, gpus, resFile, filepath.Join(dir, "preempted"))
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
	for _, kv := range task {
		k, v, _ := strings.Cut(kv, "=")
		if seen[k] != v {
			t.Errorf("%s = %q, want %q", k, seen[k], v)
		}
	}
	for k, want := range map[string]string{"CUDA_VISIBLE_DEVICES": "1,3", "MODEL": "resnet50", "PATH": os.Getenv("PATH"),
		"LANG": "en_GB.UTF-8", "CONTAINER_ID": "container_1_0001_01_000002", "HOME": os.Getenv("HOME")} {
		if seen[k] != want {
			t.Errorf("%s = %q, want %q", k, seen[k], want)
		}
	}
	for _, k := range []string{"SPINDLE_SECRET_FROM", "SPINDLE_EXECUTOR_GPU_ADDRESSES", "NVIDIA_VISIBLE_DEVICES"} {
		if v, ok := seen[k]; ok {
			t.Errorf("%s=%s leaked into the task", k, v)
		}
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

// escapees starts a grandchild that ignores SIGTERM and one that leaves
// the process group with setsid; each writes its pid to pids.
func escapees(pids string) string {
	return `touch ` + pids + `
sh -c 'trap "" TERM; echo $$ >> ` + pids + `; exec sleep 100011' &
setsid sh -c 'echo $$ >> ` + pids + `; exec sleep 100012' &
`
}

// readPids waits for n pids in path.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			var pid int
			fmt.Sscan(f, &pid)
			pids = append(pids, pid)
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d pids in %s", len(pids), path)
		}
	}
}

// Kill reaches every process the task started, the ones that ignore
// SIGTERM or left its group included: SIGTERM first, SIGKILL after the
// grace period to a task that ignores it.
func TestKillEndsTheWholeTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	task, err := Start(TaskSpec{Argv: sh("trap '' TERM; " + escapees(pidFile) + "wait"), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, pidFile, 2)
	start := time.Now()
	task.Kill()
	if d := time.Since(start); d < 200*time.Millisecond || d > 3*time.Second {
		t.Errorf("Kill returned after %v; want the 200ms grace, then SIGKILL", d)
	}
	if res := task.Wait(); res.Signal != "SIGKILL" || res.ExitCode != 137 {
		t.Errorf("killed task: exit %d signal %q; want 137 SIGKILL", res.ExitCode, res.Signal)
	}
	waitGone(t, pids)
}

// What a task leaves running dies with it, whatever it did to escape.
func TestExitKillsLeftovers(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	res, _, _ := run(t, TaskSpec{Argv: sh(escapees(pidFile) + "while [ $(wc -l < " + pidFile + ") -lt 2 ]; do sleep 0.01; done; exit 5")})
	if res.ExitCode != 5 {
		t.Fatalf("exit %d, want 5", res.ExitCode)
	}
	waitGone(t, readPids(t, pidFile, 2))
}

func TestKillAfterExitAndTwice(t *testing.T) {
	task, err := Start(TaskSpec{Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	first := task.Wait()
	start := time.Now()
	task.Kill()
	task.Kill()
	if d := time.Since(start); d > time.Second {
		t.Errorf("Kill after exit took %v", d)
	}
	if again := task.Wait(); again != first || first.ExitCode != 0 {
		t.Errorf("Wait after Kill = %+v, want the first result %+v", again, first)
	}

	// Two Kills racing on a running task both return once it is gone.
	task, err = Start(TaskSpec{Argv: []string{"sleep", "1000"}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { task.Kill() })
	}
	wg.Wait()
	if res := task.Wait(); res.Signal != "SIGTERM" {
		t.Errorf("signal %q, want SIGTERM", res.Signal)
	}
}
