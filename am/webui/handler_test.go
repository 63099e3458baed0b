package webui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

var t0 = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// twoPools is a session with a job running in each of two pools, one of
// whose stages has tasks tasks, n of them done.
func twoPools(t testing.TB, tasks, done int) *history.Store {
	t.Helper()
	s := history.NewStore(history.Limits{})
	ev := []history.Event{
		{Time: t0, App: &history.AppStarted{ID: "application_1_0002", Name: "shared", Master: "yarn", Session: true}},
		{Time: t0, Pools: []history.PoolInfo{{Name: "prod", Mode: "FAIR", Weight: 3}, {Name: "adhoc", Mode: "FIFO", Weight: 1}}},
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "container_1_0002_01_000002", Host: "nm1", Container: "container_1_0002_01_000002", Profile: "0", Cores: 4, GPUs: []string{"0", "1"}}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 0, Name: "etl", Pool: "prod", Stages: []history.StageInfo{{ID: 0, Name: "map", Tasks: tasks, Cores: 1}}}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 1, Name: "train", Pool: "adhoc", Stages: []history.StageInfo{{ID: 1, Name: "fit", Tasks: 2, GPUs: 1, Cores: 1}}}},
		{Time: t0.Add(time.Second), TaskStarted: &history.TaskStarted{Stage: 1, Index: 0, Executor: "container_1_0002_01_000002", GPUs: []string{"1"}}},
	}
	for i := range done {
		ev = append(ev, history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: i, Executor: "container_1_0002_01_000002", GPUs: []string{"0"}}},
			history.Event{Time: t0.Add(time.Second), TaskEnded: &history.TaskEnded{Stage: 0, Index: i, Executor: "container_1_0002_01_000002", State: history.TaskSucceeded}})
	}
	for _, e := range ev { // one by one, as the loop's turns come
		if err := s.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func get(t testing.TB, h http.Handler, method, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func handler(s *history.Store, live func(context.Context) (core.Status, error)) http.Handler {
	return Handler(Options{Store: s, Live: live, Base: "/proxy/application_1_0002", Refresh: 5 * time.Second,
		Now: func() time.Time { return t0.Add(10 * time.Second) }})
}

func TestThePagesShowTheSession(t *testing.T) {
	live := func(context.Context) (core.Status, error) {
		return core.Status{Jobs: []core.JobStatus{{ID: 1, Waiting: []core.WaitingStage{{Stage: "fit", Pending: 1, Why: "0/1 executors can take a task: 1 insufficient gpu"}}}},
			Pools: []core.PoolStatus{{Name: "adhoc", Mode: "FIFO", Weight: 1, Running: 1, Pending: 1, Jobs: 1}, {Name: "prod", Mode: "FAIR", Weight: 3, Jobs: 1}}}, nil
	}
	h := handler(twoPools(t, 3, 3), live)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/", []string{`<meta http-equiv="refresh" content="5">`, `<a href="/proxy/application_1_0002/jobs/1">1</a>`, `<span class="done">3/3</span>`,
			"fit: 1 waiting: 0/1 executors can take a task: 1 insufficient gpu", `<svg`, `data-series="executors-held"`, `data-series="waiting-prod"`}},
		{"/jobs/1", []string{"Job 1: train", `<a href="/proxy/application_1_0002/stages/1">1</a>`, `<span class="done">0/2</span>`, "1 insufficient gpu"}},
		{"/stages/0", []string{"Stage 0: map", `<tr class="task"><td class="n">2</td><td class="state-succeeded">succeeded</td>`, "Tasks 1–3 of 3"}},
		{"/pools", []string{`<tr class="pool" data-pool="adhoc"><td>adhoc</td><td>FIFO</td><td class="n">1</td><td class="n">0</td><td class="n jobs">1</td><td class="n running">1</td>`}},
		{"/executors", []string{`data-executor="container_1_0002_01_000002" data-state="active"`, "<td>0,1</td>", `<td class="n">3</td>`}},
	} {
		code, body := get(t, h, "GET", tc.path)
		if code != http.StatusOK {
			t.Errorf("%s: %d\n%s", tc.path, code, body)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s has no %s\n%s", tc.path, w, body)
			}
		}
	}
	// Pools in the scheduler's fair-share order while it runs: adhoc
	// before prod, as Live says, not as configured.
	if _, body := get(t, h, "GET", "/pools"); strings.Index(body, `data-pool="adhoc"`) > strings.Index(body, `data-pool="prod"`) {
		t.Errorf("pools not in Live's order:\n%s", body)
	}
}

// An ended application's pages (spindle history) do not refresh and say
// they are history.
func TestHistoryPagesDoNotRefresh(t *testing.T) {
	h := Handler(Options{Store: twoPools(t, 3, 3), Refresh: 5 * time.Second})
	_, body := get(t, h, "GET", "/")
	if strings.Contains(body, "http-equiv") || !strings.Contains(body, "(history)") || !strings.Contains(body, `<a href="/jobs/0">`) {
		t.Errorf("the history page:\n%s", body)
	}
}

func TestTheAPIPagesTasks(t *testing.T) {
	h := handler(twoPools(t, 250, 250), nil)
	var p history.TaskPage
	code, body := get(t, h, "GET", "/api/v1/stages/0/tasks?offset=100&length=100")
	if err := json.Unmarshal([]byte(body), &p); code != 200 || err != nil {
		t.Fatalf("%d %v\n%s", code, err, body)
	}
	if p.Total != 250 || len(p.Tasks) != 100 || p.Tasks[0].Index != 100 || p.Tasks[99].Index != 199 {
		t.Errorf("page: total %d, %d tasks from %d", p.Total, len(p.Tasks), p.Tasks[0].Index)
	}
	for _, tc := range []struct {
		query string
		code  int
	}{
		{"length=1000", 200}, {"length=1001", 400}, {"length=0", 400}, {"offset=-1", 400}, {"offset=x", 400},
		{"state=succeeded", 200}, {"state=done", 400},
	} {
		if code, body := get(t, h, "GET", "/api/v1/stages/0/tasks?"+tc.query); code != tc.code {
			t.Errorf("%s: %d, want %d\n%s", tc.query, code, tc.code, body)
		}
	}
	// The page's links walk it: next from the first, previous from the
	// second.
	_, body = get(t, h, "GET", "/stages/0")
	if !strings.Contains(body, `href="?length=100&amp;offset=100"`) || strings.Contains(body, `rel="prev"`) {
		t.Errorf("the first page's links:\n%s", body)
	}
	_, body = get(t, h, "GET", "/stages/0?offset=200")
	if !strings.Contains(body, `href="?length=100&amp;offset=100"`) || strings.Contains(body, `rel="next"`) || !strings.Contains(body, "Tasks 201–250 of 250") {
		t.Errorf("the last page's links:\n%s", body)
	}
}

func TestTheAPIAnswersWhatThePagesShow(t *testing.T) {
	h := handler(twoPools(t, 3, 2), nil)
	var jobs []Job
	_, body := get(t, h, "GET", "/api/v1/jobs")
	if err := json.Unmarshal([]byte(body), &jobs); err != nil || len(jobs) != 2 {
		t.Fatalf("%v\n%s", err, body)
	}
	if j := jobs[1]; j.ID != 0 || j.Succeeded != 2 || j.Tasks != 3 || j.Why != nil || j.Waiting != 1 {
		t.Errorf("job 0: %+v", j)
	}
	for path, code := range map[string]int{"/api/v1/session": 200, "/api/v1/jobs/1": 200, "/api/v1/jobs/9": 404, "/api/v1/jobs/x": 400,
		"/api/v1/stages/1": 200, "/api/v1/stages/9": 404, "/api/v1/pools": 200, "/api/v1/executors": 200, "/api/v1/timeline": 200, "/jobs/9": 404} {
		if got, body := get(t, h, "GET", path); got != code {
			t.Errorf("%s: %d, want %d\n%s", path, got, code, body)
		}
	}
}

// Nothing here changes the application: every other method is refused.
func TestOnlyReadsAreServed(t *testing.T) {
	h := handler(twoPools(t, 3, 3), nil)
	for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		for _, path := range []string{"/", "/api/v1/jobs", "/api/v1/jobs/0", "/jobs/0"} {
			if code, _ := get(t, h, method, path); code != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405", method, path, code)
			}
		}
	}
}

// A stage of 100,000 tasks serves a page of them quickly however deep
// the page (docs/ui.md has the figures).
func BenchmarkAStageOf100kTasks(b *testing.B) {
	benchPages(b, handler(twoPools(b, 100000, 100000), nil),
		"/stages/0", "/stages/0?offset=99900", "/stages/0?state=succeeded&offset=99000&length=1000", "/api/v1/stages/0/tasks?offset=99000&length=1000")
}

// A task's row links its attempt's stdout and stderr: on YARN on its
// executor's NodeManager page, locally served from the task files'
// directory, and nothing else from there.
func TestTasksLinkTheirOutput(t *testing.T) {
	s := twoPools(t, 3, 1)
	_, body := get(t, handler(s, nil), "GET", "/stages/0")
	if strings.Contains(body, ">stdout</a>") {
		t.Errorf("links to output with nowhere to read it:\n%s", body)
	}
	dir := t.TempDir()
	exec := "container_1_0002_01_000002"
	os.MkdirAll(filepath.Join(dir, exec), 0o755)
	os.WriteFile(filepath.Join(dir, exec, "job0-stage0-task0-attempt0.stdout"), []byte("hello from task 0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, exec, "executor.log"), []byte("not a task's"), 0o644)
	h := Handler(Options{Store: s, Base: "/b", TaskFiles: dir})
	_, body = get(t, h, "GET", "/stages/0")
	if want := `<a href="/b/logs/container_1_0002_01_000002/job0-stage0-task0-attempt0.stdout">stdout</a>`; !strings.Contains(body, want) {
		t.Errorf("no %s:\n%s", want, body)
	}
	for path, want := range map[string]int{
		"/logs/" + exec + "/job0-stage0-task0-attempt0.stdout":      200,
		"/logs/" + exec + "/job0-stage0-task0-attempt0.stderr":      404, // not there
		"/logs/" + exec + "/executor.log":                           404,
		"/logs/exec-9/job0-stage0-task0-attempt0.stdout":            404,
		"/logs/..%2F" + exec + "/job0-stage0-task0-attempt0.stdout": 404,
	} {
		if code, body := get(t, h, "GET", path); code != want || (code == 200 && body != "hello from task 0\n") {
			t.Errorf("%s: %d %q, want %d", path, code, body, want)
		}
	}
	s.Record(history.Event{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "e2", LogURL: "http://nm2:8042/node/containerlogs/c2/alice"}},
		history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 2, Attempt: 1, Executor: "e2"}})
	_, body = get(t, h, "GET", "/stages/0")
	if want := `<a href="http://nm2:8042/node/containerlogs/c2/alice/job0-stage0-task2-attempt1.stderr">stderr</a>`; !strings.Contains(body, want) {
		t.Errorf("no %s:\n%s", want, body)
	}
}

// While the application runs, an executor shows its GPUs' latest
// figures and a running task those of the GPUs its addresses name (by
// index or UUID); after, none.
func TestGPUFiguresShowPerExecutorAndPerTask(t *testing.T) {
	pct0, pct1, used, total := 5, 93, int64(70000), int64(81559)
	exec := "container_1_0002_01_000002"
	live := func(context.Context) (core.Status, error) {
		return core.Status{Executors: []core.ExecutorStatus{{ID: exec, GPUs: []gpuuse.Sample{
			{Index: 0, UUID: "GPU-a", UtilizationPct: &pct0},
			{Index: 7, UUID: "GPU-b", UtilizationPct: &pct1, MemoryUsedMiB: &used, MemoryTotalMiB: &total}}}}}, nil
	}
	s := twoPools(t, 3, 1)
	s.Record(history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 1, Index: 1, Executor: exec, GPUs: []string{"GPU-b"}}})
	h := handler(s, live)
	_, body := get(t, h, "GET", "/executors")
	if want := `<td class="gpu-use">GPU 0 5% ?/? MiB; GPU 7 93% 70000/81559 MiB</td>`; !strings.Contains(body, want) {
		t.Errorf("the executors page has no %s:\n%s", want, body)
	}
	var p TaskPage
	_, body = get(t, h, "GET", "/api/v1/stages/1/tasks")
	if err := json.Unmarshal([]byte(body), &p); err != nil || len(p.Tasks) != 2 {
		t.Fatalf("%v\n%s", err, body)
	}
	// Task 0 runs on GPU "1": the executor has no figures of it.
	if len(p.Tasks[0].GPUUse) != 0 || len(p.Tasks[1].GPUUse) != 1 || *p.Tasks[1].GPUUse[0].UtilizationPct != 93 {
		t.Errorf("tasks' GPU use: %+v, %+v; want none, then GPU-b's", p.Tasks[0].GPUUse, p.Tasks[1].GPUUse)
	}
	_, body = get(t, h, "GET", "/stages/1")
	if !strings.Contains(body, `GPU-b<div class="gpu-use">GPU 7 93% 70000/81559 MiB</div>`) {
		t.Errorf("the stage page shows no GPU use of task 1:\n%s", body)
	}
	if _, body := get(t, handler(s, nil), "GET", "/executors"); strings.Contains(body, "93%") {
		t.Error("figures with no live driver")
	}
}
