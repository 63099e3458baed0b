package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helpers: the record of task runs. The fault tests each run a job of
// many short GPU tasks that record their starts and ends, then read the
// record: which task ran when, in which container, and how each run
// ended. A task appends one line as it starts and one as it ends (a trap
// on exit and on SIGTERM), to a file every container on this host can
// write: the mini cluster's containers are local processes.
//
//	start TASK ATTEMPT CONTAINER UNIX_NANOS
//	end TASK ATTEMPT CONTAINER UNIX_NANOS HOW
//
// HOW is "ok" when the task's work finished, or "term" when it was sent
// SIGTERM, with ",preempted" when it could read SPINDLE_PREEMPTED=1 from
// the file $SPINDLE_PREEMPTED_FILE names (docs/reliability.md).

// recordingSpec writes a job spec of n tasks, each holding one GPU for
// secs seconds, recording into dir/record. While dir/hold exists a task
// that has started waits before its work: a test holds a job's tasks
// so that what it looks at cannot run out under it.
func recordingSpec(t *testing.T, dir, name string, n int, secs float64) string {
	t.Helper()
	script := filepath.Join(dir, "task.sh")
	body := `#!/bin/sh
rec=` + filepath.Join(dir, "record") + `
id="$SPINDLE_TASK_INDEX $SPINDLE_ATTEMPT $CONTAINER_ID"
echo "start $id $(date +%s%N)" >>"$rec"
how=ok
on_term() {
  trap '' TERM # once: a second SIGTERM (the guard's, the group's) adds nothing
  how=term
  if [ -n "$SPINDLE_PREEMPTED_FILE" ] && grep -qx 'SPINDLE_PREEMPTED=1' "$SPINDLE_PREEMPTED_FILE" 2>/dev/null; then how=term,preempted; fi
  echo "end $id $(date +%s%N) $how" >>"$rec"
  exit 143
}
trap on_term TERM
while [ -e ` + filepath.Join(dir, "hold") + ` ]; do sleep 0.1; done
sleep ` + strconv.FormatFloat(secs, 'f', -1, 64) + ` &
wait $!
echo "end $id $(date +%s%N) $how" >>"$rec"
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return writeSpec(t, fmt.Sprintf("name: %s\nstages:\n  - {name: s, tasks: %d, resources: {cpus: 1, gpus: 1}, command: %q}\n", name, n, script))
}

// readRunsIfAny is readRuns before the first task has written anything.
func readRunsIfAny(t *testing.T, dir string) []taskRun {
	if _, err := os.Stat(filepath.Join(dir, "record")); err != nil {
		return nil
	}
	return readRuns(t, dir)
}

// taskRun is one run of a task, as its record says.
type taskRun struct {
	Task, Attempt int
	Container     string
	Start, End    time.Time // End zero: no end recorded (killed hard)
	How           string    // "ok", "term", "term,preempted"; "" with no end
}

func (r taskRun) String() string {
	return fmt.Sprintf("task %d attempt %d in %s [%s–%s %s]", r.Task, r.Attempt, r.Container,
		r.Start.Format("15:04:05.000"), r.End.Format("15:04:05.000"), r.How)
}

// readRuns reads dir/record into runs in order of their starts.
func readRuns(t *testing.T, dir string) []taskRun {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "record"))
	if err != nil {
		t.Fatal(err)
	}
	open := map[string]int{} // task attempt container → index in runs
	var runs []taskRun
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			t.Fatalf("record line %d: %q: want 5 or more fields", i+1, line)
		}
		task, err1 := strconv.Atoi(f[1])
		attempt, err2 := strconv.Atoi(f[2])
		ns, err3 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("record line %d: %q", i+1, line)
		}
		key := strings.Join(f[1:4], " ")
		switch {
		case f[0] == "start":
			open[key] = len(runs)
			runs = append(runs, taskRun{Task: task, Attempt: attempt, Container: f[3], Start: time.Unix(0, ns)})
		case f[0] == "end" && len(f) == 6:
			k, ok := open[key]
			if !ok {
				t.Fatalf("record line %d: %q ends a run that never started", i+1, line)
			}
			runs[k].End, runs[k].How = time.Unix(0, ns), f[5]
			delete(open, key)
		default:
			t.Fatalf("record line %d: %q", i+1, line)
		}
	}
	sort.SliceStable(runs, func(i, k int) bool { return runs[i].Start.Before(runs[k].Start) })
	return runs
}

// finished says whether every task of n ended "ok" at least once.
func finished(runs []taskRun, n int) []int {
	ok := map[int]bool{}
	for _, r := range runs {
		if r.How == "ok" {
			ok[r.Task] = true
		}
	}
	var missing []int
	for i := 0; i < n; i++ {
		if !ok[i] {
			missing = append(missing, i)
		}
	}
	return missing
}

// twiceAtOnce lists the pairs of runs of one task that overlapped in
// time; a run with no end lasts until until.
func twiceAtOnce(runs []taskRun, until time.Time) []string {
	var out []string
	for i, a := range runs {
		for _, b := range runs[i+1:] {
			if a.Task != b.Task {
				continue
			}
			aEnd := a.End
			if aEnd.IsZero() {
				aEnd = until
			}
			if b.Start.Before(aEnd) {
				out = append(out, a.String()+" and "+b.String())
			}
		}
	}
	return out
}

// succeededAgain lists the runs that started after a run of the same
// task had ended "ok" before at: work done before a fault, done again.
func succeededAgain(runs []taskRun, at time.Time) []string {
	done := map[int]bool{}
	for _, r := range runs {
		if r.How == "ok" && r.End.Before(at) {
			done[r.Task] = true
		}
	}
	var out []string
	for _, r := range runs {
		if done[r.Task] && r.Start.After(at) {
			out = append(out, r.String())
		}
	}
	return out
}

// keptRunning checks the runs under way at a fault (started before at,
// not ended by then): each must be its task's only run, and have ended
// "ok". A task killed at the fault and run again (in the same container
// or another) leaves two starts. running is how many were under way;
// broken lists those that were not kept.
func keptRunning(runs []taskRun, at time.Time) (running int, broken []string) {
	starts := map[int]int{}
	for _, r := range runs {
		starts[r.Task]++
	}
	for _, r := range runs {
		if !r.Start.Before(at) || (!r.End.IsZero() && r.End.Before(at)) {
			continue
		}
		running++
		if starts[r.Task] != 1 || r.How != "ok" {
			broken = append(broken, fmt.Sprintf("%v: %d runs of task %d", r, starts[r.Task], r.Task))
		}
	}
	return running, broken
}

// figures says what a fault cost, for docs/reliability.md: the time from
// the fault to the next task's start, the runs beyond one per task, and
// the GPU-seconds of work thrown away (runs that did not end "ok", one
// GPU each, to their end or until).
func figures(runs []taskRun, tasks int, fault, until time.Time) string {
	next := time.Duration(-1)
	lost := 0.0
	for _, r := range runs {
		if d := r.Start.Sub(fault); d >= 0 && (next < 0 || d < next) {
			next = d
		}
		if r.How != "ok" {
			end := r.End
			if end.IsZero() {
				end = until
			}
			lost += end.Sub(r.Start).Seconds()
		}
	}
	return fmt.Sprintf("next task start %.1fs after the fault, %d runs beyond one per task, %.1f GPU-s of work lost", next.Seconds(), len(runs)-tasks, lost)
}

// waitStarts waits until n runs have started in dir's record.
func waitStarts(ctx context.Context, t *testing.T, dir string, n int, out *syncBuffer) {
	t.Helper()
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "record"))
		if strings.Count(string(b), "start ") >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d tasks never started:\n%s\n%s", n, b, out.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
