package integration

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run local mode for real: the spindle binary, its executor
// processes and real task processes, on fake GPU addresses.

func TestLocalFractionalGPUsNeverOverfillAnAddress(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seen")
	spec := writeSpec(t, fmt.Sprintf(`name: share
stages:
  - name: s
    tasks: 16
    resources: {cpus: 1, gpus: 0.5}
    command: ["/bin/sh", "-c", "s=$(date +%%s.%%N); sleep 0.3; e=$(date +%%s.%%N); echo \"$SPINDLE_EXECUTOR_ID $CUDA_VISIBLE_DEVICES $s $e\" >> %s"]
`, out))
	if o, err := submit(t, append(localArgs, spec)...); err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	lines := readLines(t, out)
	if len(lines) != 16 {
		t.Fatalf("%d task records, want 16", len(lines))
	}
	type span struct{ start, end float64 }
	byAddr := map[string][]span{}
	owner := map[string]string{}
	for _, l := range lines {
		if len(l) != 4 {
			t.Fatalf("task record %q: want executor, one address, start, end", l)
		}
		exec, addr := l[0], l[1]
		if prev, ok := owner[addr]; ok && prev != exec {
			t.Errorf("address %s seen on %s and %s: executors must have disjoint addresses", addr, prev, exec)
		}
		owner[addr] = exec
		// SplitDisjoint gives executors consecutive addresses: exec-1 has
		// 0 and 1, exec-2 has 2 and 3.
		if want := map[string]string{"0": "exec-1", "1": "exec-1", "2": "exec-2", "3": "exec-2"}[addr]; want != exec {
			t.Errorf("task on %s saw address %q, which belongs to %s", exec, addr, want)
		}
		s, _ := strconv.ParseFloat(l[2], 64)
		e, _ := strconv.ParseFloat(l[3], 64)
		byAddr[addr] = append(byAddr[addr], span{s, e})
	}
	for addr, spans := range byAddr {
		// Sweep the starts and ends: at no instant more than 1/0.5 = 2 tasks.
		type edge struct {
			at    float64
			delta int
		}
		var edges []edge
		for _, s := range spans {
			edges = append(edges, edge{s.start, 1}, edge{s.end, -1})
		}
		sort.Slice(edges, func(i, j int) bool {
			if edges[i].at != edges[j].at {
				return edges[i].at < edges[j].at
			}
			return edges[i].delta < edges[j].delta
		})
		n, peak := 0, 0
		for _, e := range edges {
			n += e.delta
			peak = max(peak, n)
		}
		if peak > 2 {
			t.Errorf("address %s had %d half-GPU tasks at once", addr, peak)
		}
	}
}

func TestLocalStagesRunInOrderAndFailedAttemptsRetry(t *testing.T) {
	out := filepath.Join(t.TempDir(), "order")
	spec := writeSpec(t, fmt.Sprintf(`name: dag
stages:
  - name: a
    tasks: 4
    command: "if [ \"$SPINDLE_TASK_INDEX$SPINDLE_ATTEMPT\" = 10 ]; then exit 3; fi; echo a $(date +%%s.%%N) >> %[1]s"
  - name: b
    after: [a]
    tasks: 2
    command: "echo b $(date +%%s.%%N) >> %[1]s"
`, out))
	o, err := submit(t, append(localArgs, spec)...)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	if !strings.Contains(o, "retries 1") {
		t.Errorf("summary does not count the retry:\n%s", o)
	}
	var lastA, firstB float64 = 0, 1e18
	for _, l := range readLines(t, out) {
		ts, _ := strconv.ParseFloat(l[1], 64)
		if l[0] == "a" {
			lastA = max(lastA, ts)
		} else {
			firstB = min(firstB, ts)
		}
	}
	if !(lastA < firstB) {
		t.Fatalf("stage b started (%f) before stage a ended (%f)", firstB, lastA)
	}
}

func TestLocalMissingCommandFailsTheJobWithTheOSError(t *testing.T) {
	spec := writeSpec(t, `name: missing
stages:
  - name: s
    tasks: 1
    maxAttempts: 2
    command: ["no-such-command-spindle-test"]
`)
	o, err := submit(t, append(localArgs, spec)...)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("submit exited %v, want non-zero\n%s", err, o)
	}
	if !strings.Contains(o, "no-such-command-spindle-test") || !strings.Contains(o, "not found") {
		t.Fatalf("output does not give the OS error:\n%s", o)
	}
	if !strings.Contains(o, "failed 2 times") {
		t.Fatalf("output does not say the task was tried twice:\n%s", o)
	}
}

func TestLocalExecutorKilledMidJobItsTasksRunElsewhere(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: survive
stages:
  - name: s
    tasks: 8
    command: "cut -d' ' -f4 /proc/$PPID/stat > %[1]s/pid-$SPINDLE_EXECUTOR_ID; sleep 2; echo done >> %[1]s/done"
`, dir))
	cmd, buf := startSpindle(t, append(os.Environ(), "TMPDIR="+t.TempDir()), append(localArgs, spec)...)
	// Once exec-1 runs a task, kill it outright (the task's parent is its
	// guard, whose parent is the executor).
	pidFile := filepath.Join(dir, "pid-exec-1")
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(pidFile)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			syscall.Kill(pid, syscall.SIGKILL)
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("exec-1 never ran a task\n%s", buf.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job failed after losing an executor: %v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), "lost") {
		t.Errorf("the summary does not report the lost executor:\n%s", buf.String())
	}
	if n := len(readLines(t, filepath.Join(dir, "done"))); n < 8 {
		t.Errorf("%d tasks completed, want all 8", n)
	}
}

func TestLocalFilesReachTheTasksWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.txt")
	os.WriteFile(note, []byte("shipped-content\n"), 0o644)
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, fmt.Sprintf(`name: files
stages:
  - name: s
    tasks: 2
    command: "cat note.txt >> %s"
`, out))
	if o, err := submit(t, append(localArgs, "--files", note, spec)...); err != nil {
		t.Fatalf("submit --files: %v\n%s", err, o)
	}
	if b, _ := os.ReadFile(out); string(b) != "shipped-content\nshipped-content\n" {
		t.Fatalf("tasks read %q from the shipped file", b)
	}
}

// A task's argument as long as exec takes (MAX_ARG_STRLEN, 131072 bytes
// with its NUL) runs; one byte longer is refused at submit, naming it,
// rather than failing every attempt with "argument list too long".
func TestLocalArgumentAtExecsBound(t *testing.T) {
	at := strings.Repeat("a", 128<<10-1)
	out, err := submit(t, "submit", "--master", "local[1]", "--tasks", "1", "--", "sh", "-c", `test "${#1}" -eq 131071`, "sh", at)
	if err != nil || !strings.Contains(out, "SUCCEEDED") {
		t.Errorf("an argument of 131071 bytes: %v\n%s", err, out)
	}
	// Past it, from a spec: spindle's own command line could not carry it.
	spec := writeSpec(t, "name: long\nstages:\n  - {name: s, tasks: 1, command: [echo, "+at+"a]}\n")
	out, err = submit(t, "submit", "--master", "local[1]", spec)
	if err == nil || !strings.Contains(out, ":3: stages[0].command[1]: 131072 bytes: longer than the 131071 bytes Linux takes as one argument") {
		t.Errorf("an argument of 131072 bytes: %v\n%s", err, out)
	}
}
