package integration

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// Spark users' habits, end to end: the real binary in local mode.

func TestLocalNameFlagWinsOverTheSpecsName(t *testing.T) {
	spec := writeSpec(t, "name: spec-name\nstages:\n  - {name: a, tasks: 1, command: \"test \\\"$SPINDLE_JOB\\\" = flag-name\", maxAttempts: 1}\n")
	out, err := submit(t, "submit", "--master", "local", "--name", "flag-name", spec)
	if err != nil || !strings.Contains(out, "job flag-name SUCCEEDED") {
		t.Fatalf("err = %v, want job flag-name to succeed with SPINDLE_JOB=flag-name\n%s", err, out)
	}
}

// local[*] runs as many one-core executors as the machine has logical
// cores: that many one-core tasks run at once, each waiting for all.
func TestLocalStarRunsATaskPerCoreAtOnce(t *testing.T) {
	n := runtime.NumCPU()
	dir := t.TempDir()
	barrier := fmt.Sprintf(`touch %s/$SPINDLE_TASK_INDEX; for i in $(seq 200); do [ $(ls %s | wc -l) -ge %d ] && exit 0; sleep 0.1; done; exit 1`, dir, dir, n)
	spec := writeSpec(t, fmt.Sprintf("name: star\nstages:\n  - {name: a, tasks: %d, command: %q, maxAttempts: 1}\n", n, barrier))
	out, err := submit(t, "submit", "--master", "local[*]", spec)
	if err != nil || !strings.Contains(out, "job star SUCCEEDED") {
		t.Fatalf("local[*] on %d cores: err = %v, want %d tasks running at once\n%s", n, err, n, out)
	}
}

func TestLocalUndefinedPoolIsNoticedAndRuns(t *testing.T) {
	spec := writeSpec(t, "name: p\npool: prod\nstages:\n  - {name: a, tasks: 1, command: \"true\"}\n")
	out, err := submit(t, "submit", "--master", "local[1]", spec)
	want := `spindle: pool "prod": no allocation file is set (spindle.scheduler.allocation.file); created with Spark's defaults (weight 1, minShare 0, FIFO)`
	if err != nil || !strings.Contains(out, want) {
		t.Fatalf("err = %v, want the job to run with the notice %q\n%s", err, want, out)
	}
}
