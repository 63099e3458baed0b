package webui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

const exec2 = "container_1_0002_01_000002"

// retried is twoPools with stage 0's task 1 failed on its first attempt
// and run again on exec-9 (on YARN, at nm9's log page).
func retried(t *testing.T) *history.Store {
	s := twoPools(t, 3, 1)
	for _, e := range []history.Event{
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-9", Host: "nm9", LogURL: "http://nm9:8042/node/containerlogs/c9/alice"}},
		{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 1, Executor: exec2, GPUs: []string{"0"}}},
		{Time: t0.Add(2 * time.Second), TaskEnded: &history.TaskEnded{Stage: 0, Index: 1, Executor: exec2, State: history.TaskFailed, ExitCode: 3, Reason: "exit status 3"}},
		{Time: t0.Add(3 * time.Second), TaskStarted: &history.TaskStarted{Stage: 0, Index: 1, Attempt: 1, Executor: "exec-9"}},
		{Time: t0.Add(7 * time.Second), TaskEnded: &history.TaskEnded{Stage: 0, Index: 1, Attempt: 1, Executor: "exec-9", State: history.TaskSucceeded}},
	} {
		if err := s.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A task with more than one attempt links each earlier attempt's output
// from its stage's page, its attempt count its own page, which lists
// every attempt with its output; the API has the same.
func TestEveryAttemptIsLinked(t *testing.T) {
	h := Handler(Options{Store: retried(t), Base: "/b", TaskFiles: t.TempDir(), Now: func() time.Time { return t0.Add(10 * time.Second) }})
	_, body := get(t, h, "GET", "/stages/0")
	for _, want := range []string{
		`<a class="attempts" href="/b/stages/0/tasks/1">2</a>`,
		`<a href="http://nm9:8042/node/containerlogs/c9/alice/job0-stage0-task1-attempt1.stdout">stdout</a>`,
		`<div class="earlier" data-attempt="0">attempt 0 (failed): <a href="/b/logs/container_1_0002_01_000002/job0-stage0-task1-attempt0.stdout">stdout</a> <a href="/b/logs/container_1_0002_01_000002/job0-stage0-task1-attempt0.stderr">stderr</a></div>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the stage page has no %s:\n%s", want, body)
		}
	}
	if strings.Count(body, `class="earlier"`) != 1 {
		t.Errorf("earlier attempts of tasks run once:\n%s", body)
	}
	code, body := get(t, h, "GET", "/stages/0/tasks/1")
	for _, want := range []string{
		`<tr class="attempt" data-attempt="0"><td class="n">0</td><td class="state-failed">failed</td><td>container_1_0002_01_000002</td><td>nm1</td><td>0</td>`,
		`<td class="n">3</td><td>exit status 3</td><td><a href="/b/logs/container_1_0002_01_000002/job0-stage0-task1-attempt0.stdout">stdout</a>`,
		`<tr class="attempt" data-attempt="1"><td class="n">1</td><td class="state-succeeded">succeeded</td><td>exec-9</td><td>nm9</td>`,
		`<a href="http://nm9:8042/node/containerlogs/c9/alice/job0-stage0-task1-attempt1.stderr">stderr</a>`,
	} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("the task page (%d) has no %s:\n%s", code, want, body)
		}
	}
	var task history.TaskAttempts
	_, body = get(t, h, "GET", "/api/v1/stages/0/tasks/1")
	if err := json.Unmarshal([]byte(body), &task); err != nil || task.Attempts != 2 || len(task.Kept) != 2 || task.Kept[0].ExitCode != 3 || task.Kept[1].LogURL == "" {
		t.Errorf("the API's task 1: %v %+v", err, task)
	}
	for path, want := range map[string]int{"/stages/0/tasks/3": 404, "/stages/0/tasks/x": 400, "/api/v1/stages/9/tasks/0": 404, "/stages/0/tasks/2": 200} {
		if code, body := get(t, h, "GET", path); code != want {
			t.Errorf("%s: %d, want %d\n%s", path, code, want, body)
		}
	}
}

// The stage page's columns sort its tasks on the server: a header
// links the order, a second click turns it round, and the pages'
// links keep it; a bad order is a 400.
func TestTheStagePageSorts(t *testing.T) {
	h := handler(retried(t), nil)
	_, body := get(t, h, "GET", "/stages/0")
	if !strings.Contains(body, `<th><a href="?sort=duration">Duration</a></th>`) || !strings.Contains(body, `<th><a href="?desc=true&amp;sort=index">Task</a></th>`) {
		t.Errorf("the headers' links:\n%s", body)
	}
	_, body = get(t, h, "GET", "/stages/0?sort=duration")
	if !strings.Contains(body, `<a href="?desc=true&amp;sort=duration">Duration</a>`) {
		t.Errorf("sorted by duration, its header does not turn it round:\n%s", body)
	}
	var p TaskPage
	_, body = get(t, h, "GET", "/api/v1/stages/0/tasks?sort=duration&desc=true")
	if err := json.Unmarshal([]byte(body), &p); err != nil || len(p.Tasks) != 3 || p.Tasks[0].Index != 1 || p.Tasks[1].Index != 0 || p.Tasks[2].Index != 2 {
		t.Errorf("by duration, slowest first: %v %+v", err, p.Tasks)
	}
	_, body = get(t, handler(twoPools(t, 250, 250), nil), "GET", "/stages/0?sort=start&desc=1&offset=100")
	if !strings.Contains(body, `href="?desc=1&amp;length=100&amp;offset=0&amp;sort=start"`) || !strings.Contains(body, `href="?desc=1&amp;length=100&amp;offset=200&amp;sort=start"`) {
		t.Errorf("the pages' links lose the order:\n%s", body)
	}
	for _, q := range []string{"sort=size", "desc=maybe"} {
		if code, body := get(t, h, "GET", "/api/v1/stages/0/tasks?"+q); code != 400 {
			t.Errorf("%s: %d\n%s", q, code, body)
		}
	}
}

// The stage's summary has its succeeded tasks' durations' spread, on its
// page and in the API, and while it runs its running tasks' GPUs'
// utilization.
func TestAStageHasASummary(t *testing.T) {
	s := retried(t)
	s.Record(history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 1, Index: 1, Executor: exec2, GPUs: []string{"0"}}})
	pct0, pct1 := 20, 80
	live := func(context.Context) (core.Status, error) {
		return core.Status{Executors: []core.ExecutorStatus{{ID: exec2, GPUs: []gpuuse.Sample{{Index: 0, UtilizationPct: &pct0}, {Index: 1, UtilizationPct: &pct1}}}}}, nil
	}
	h := handler(s, live)
	var st Stage
	_, body := get(t, h, "GET", "/api/v1/stages/0")
	if err := json.Unmarshal([]byte(body), &st); err != nil || st.Summary.DurationS == nil {
		t.Fatalf("%v\n%s", err, body)
	}
	// Task 0 took 1s, task 1's second attempt 4s.
	if d := *st.Summary.DurationS; d != (history.Quantiles{N: 2, Min: 1, P25: 1, Median: 4, P75: 4, Max: 4}) || st.Summary.GPUUtilizationPct != nil || st.Name != "map" {
		t.Errorf("stage 0's summary: %+v, %+v", d, st.Summary.GPUUtilizationPct)
	}
	_, body = get(t, h, "GET", "/stages/0")
	if want := `<td class="n median" data-s="4">4s</td>`; !strings.Contains(body, want) {
		t.Errorf("the stage page has no %s:\n%s", want, body)
	}
	_, body = get(t, h, "GET", "/api/v1/stages/1")
	st = Stage{}
	json.Unmarshal([]byte(body), &st)
	if u := st.Summary.GPUUtilizationPct; u == nil || *u != (history.Quantiles{N: 2, Min: 20, P25: 20, Median: 80, P75: 80, Max: 80}) || st.Summary.DurationS != nil {
		t.Errorf("stage 1's summary: %+v\n%s", st.Summary, body)
	}
	if _, body = get(t, h, "GET", "/stages/1"); !strings.Contains(body, `<td class="n median">80%</td>`) {
		t.Errorf("the stage page has no GPU utilization:\n%s", body)
	}
}

// A gang stage's page groups its attempts by their number, each rank's
// output linked; its tasks' pages link that group.
func TestAGangStageShowsItsAttempts(t *testing.T) {
	s := history.NewStore(history.Limits{})
	ev := []history.Event{
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-1", Host: "vm"}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 0, Stages: []history.StageInfo{{ID: 0, Name: "fit", Tasks: 2, Gang: true}}}},
	}
	for a := range 2 {
		for i := range 2 {
			ev = append(ev, history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: i, Attempt: a, Executor: "exec-1"}})
		}
	}
	// Attempt 0: task 1 failed, task 0 stopped for it (ended before
	// attempt 1 began, its end told after).
	ev = append(ev[:4], append([]history.Event{
		{Time: t0, TaskEnded: &history.TaskEnded{Stage: 0, Index: 1, Executor: "exec-1", State: history.TaskFailed, Reason: "exit status 1"}},
		{Time: t0, TaskEnded: &history.TaskEnded{Stage: 0, Index: 0, Executor: "exec-1", State: history.TaskKilled, Reason: "gang restarts"}},
	}, ev[4:]...)...)
	if err := s.Record(ev...); err != nil {
		t.Fatal(err)
	}
	h := Handler(Options{Store: s, TaskFiles: t.TempDir(), Now: func() time.Time { return t0.Add(time.Second) }})
	_, body := get(t, h, "GET", "/stages/0")
	for _, want := range []string{
		`<tr class="gang-attempt" id="gang-attempt-0"><td class="n">0</td><td class="state-failed">failed</td>`,
		`<td>task 1: exit status 1</td>`,
		`<div class="rank" data-task="0">task 0 <span class="state-killed">killed</span> exec-1  <a href="/logs/exec-1/job0-stage0-task0-attempt0.stdout">stdout</a>`,
		`<tr class="gang-attempt" id="gang-attempt-1"><td class="n">1</td><td class="state-running">running</td>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the gang's stage page has no %s:\n%s", want, body)
		}
	}
	_, body = get(t, h, "GET", "/stages/0/tasks/0")
	if want := `<a href="/stages/0#gang-attempt-0">gang attempt 0</a>`; !strings.Contains(body, want) {
		t.Errorf("the gang's task page has no %s:\n%s", want, body)
	}
	var st Stage
	_, body = get(t, h, "GET", "/api/v1/stages/0")
	if err := json.Unmarshal([]byte(body), &st); err != nil || !st.Gang || len(st.GangAttempts) != 2 || len(st.GangAttempts[0].Ranks) != 2 {
		t.Errorf("the API's gang stage: %v %s", err, body)
	}
}

// A stage of 100,000 tasks of different durations, sorted, summarized
// and each task's page, as the budgets of docs/ui.md's "What it costs"
// have them.
func BenchmarkSortingAStageOf100kTasks(b *testing.B) {
	s := history.NewStore(history.Limits{})
	ev := []history.Event{
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-1"}},
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-2"}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 0, Stages: []history.StageInfo{{ID: 0, Tasks: 100000}}}},
	}
	for i := range 100000 {
		exec, took := fmt.Sprint("exec-", 1+i%2), time.Duration(i*7919%100000)*time.Millisecond
		ev = append(ev, history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: i, Executor: exec}},
			history.Event{Time: t0.Add(took), TaskEnded: &history.TaskEnded{Stage: 0, Index: i, Executor: exec, State: history.TaskSucceeded}})
	}
	if err := s.Record(ev...); err != nil {
		b.Fatal(err)
	}
	benchPages(b, handler(s, nil), "/stages/0?sort=duration&desc=true", "/stages/0?sort=duration&desc=true&offset=99900",
		"/api/v1/stages/0/tasks?sort=duration&length=1000", "/api/v1/stages/0", "/stages/0/tasks/99999")
}

// The state filter keeps the order asked for.
func TestTheStateFilterKeepsTheOrder(t *testing.T) {
	_, body := get(t, handler(retried(t), nil), "GET", "/stages/0?sort=duration&desc=true")
	if want := `<input type="hidden" name="sort" value="duration"><input type="hidden" name="desc" value="true">`; !strings.Contains(body, want) {
		t.Errorf("the stage page's form has no %s:\n%s", want, body)
	}
}
