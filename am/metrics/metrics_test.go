package metrics

import (
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
)

// scrape is GET /metrics, parsed as Prometheus parses the text format.
func scrape(t *testing.T, m *Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics = %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// value is the sample of family name whose labels are labels ("k=v"
// pairs), or -1 when there is none; a histogram's is its count.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	for _, mt := range f.GetMetric() {
		var have []string
		for _, l := range mt.GetLabel() {
			have = append(have, l.GetName()+"="+l.GetValue())
		}
		sort.Strings(have)
		want := append([]string(nil), labels...)
		sort.Strings(want)
		if strings.Join(have, ",") != strings.Join(want, ",") {
			continue
		}
		switch {
		case mt.Gauge != nil:
			return mt.GetGauge().GetValue()
		case mt.Counter != nil:
			return mt.GetCounter().GetValue()
		case mt.Histogram != nil:
			return float64(mt.GetHistogram().GetSampleCount())
		}
	}
	return -1
}

func histogramSum(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	for _, mt := range fams[name].GetMetric() {
		ok := true
		for _, l := range labels {
			k, v, _ := strings.Cut(l, "=")
			found := false
			for _, have := range mt.GetLabel() {
				found = found || have.GetName() == k && have.GetValue() == v
			}
			ok = ok && found
		}
		if ok {
			return mt.GetHistogram().GetSampleSum()
		}
	}
	return -1
}

var t0 = time.Unix(1_800_000_000, 0)

func at(s float64, e history.Event) history.Event {
	e.Time = t0.Add(time.Duration(s * float64(time.Second)))
	return e
}

func started(s float64, stage int64, index, attempt int, exec string) history.Event {
	return at(s, history.Event{TaskStarted: &history.TaskStarted{Stage: stage, Index: index, Attempt: attempt, Executor: exec}})
}

func ended(s float64, stage int64, index, attempt int, state string) history.Event {
	return at(s, history.Event{TaskEnded: &history.TaskEnded{Stage: stage, Index: index, Attempt: attempt, State: state}})
}

// job 1 in pool prod: stage 10 of 4 tasks of half a GPU, then stage 11
// of one task of none.
var prodJob = history.Event{JobSubmitted: &history.JobSubmitted{ID: 1, Name: "train", Pool: "prod", Stages: []history.StageInfo{
	{ID: 10, Name: "map", Tasks: 4, GPUs: 0.5}, {ID: 11, Name: "gather", Tasks: 1, Parents: []int64{10}}}}}

// configuredProd says at the application's start that pool prod is
// configured: its series stay once its jobs have ended.
var configuredProd = history.Event{Pools: []history.PoolInfo{{Name: "prod", Mode: "FAIR", Weight: 1}}}

// Tasks are counted by state and pool as the REST API counts them:
// running, waiting (neither running nor succeeded, in running jobs), and
// attempts ended by how, with their durations; GPUs in use are the
// running attempts' shares summed.
func TestTasksByStateAndPool(t *testing.T) {
	m := New()
	m.Observe([]history.Event{configuredProd, at(0, prodJob), at(0, prodJob), // twice: once counted
		started(1, 10, 0, 0, "e1"), started(1, 10, 1, 0, "e1"), started(1, 10, 2, 0, "e1")})
	f := scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"spindle_tasks", []string{"state=running", "pool=prod"}, 3},
		{"spindle_tasks", []string{"state=waiting", "pool=prod"}, 2},
		{"spindle_gpus_in_use", nil, 1.5},
		{"spindle_jobs", []string{"state=running", "pool=prod"}, 1},
		{"spindle_tasks_ended_total", []string{"state=succeeded", "pool=prod"}, 0},
	} {
		if got := value(f, c.name, c.labels...); got != c.want {
			t.Errorf("after 3 starts: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}

	m.Observe([]history.Event{ended(3, 10, 0, 0, history.TaskSucceeded), ended(2, 10, 1, 0, history.TaskFailed),
		ended(3, 10, 1, 0, history.TaskFailed),    // told twice: once counted
		ended(4, 10, 2, 7, history.TaskSucceeded), // not the running attempt
		started(5, 10, 1, 1, "e1"),
		started(5, 10, 3, 0, "e1"), started(5, 10, 3, 1, "e1")}) // attempt 0 lost unreported: 1 running
	m.Observe([]history.Event{ended(6, 10, 3, 1, history.TaskSucceeded)})
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"spindle_tasks", []string{"state=running", "pool=prod"}, 2},
		{"spindle_tasks", []string{"state=waiting", "pool=prod"}, 1}, // 5 tasks, 2 succeeded, 2 running
		{"spindle_gpus_in_use", nil, 1},
		{"spindle_tasks_ended_total", []string{"state=succeeded", "pool=prod"}, 2},
		{"spindle_tasks_ended_total", []string{"state=failed", "pool=prod"}, 1},
		{"spindle_tasks_ended_total", []string{"state=killed", "pool=prod"}, 0},
		{"spindle_task_duration_seconds", []string{"state=succeeded", "pool=prod"}, 2},
		{"spindle_task_duration_seconds", []string{"state=failed", "pool=prod"}, 1},
	} {
		if got := value(f, c.name, c.labels...); got != c.want {
			t.Errorf("after 2 ends and a retry: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if s := histogramSum(f, "spindle_task_duration_seconds", "state=succeeded", "pool=prod"); s != 3 {
		t.Errorf("succeeded durations sum to %vs, want 2s + 1s", s)
	}
	if s := histogramSum(f, "spindle_task_duration_seconds", "state=failed", "pool=prod"); s != 1 {
		t.Errorf("failed durations sum to %vs, want 1s", s)
	}

	// The job is cancelled: its tasks no longer wait, and its attempts
	// killed after its end still count.
	m.Observe([]history.Event{at(6, history.Event{JobEnded: &history.JobEnded{ID: 1, State: history.JobCancelled}}),
		ended(7, 10, 1, 1, history.TaskKilled), ended(7, 10, 2, 0, history.TaskKilled)})
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"spindle_tasks", []string{"state=running", "pool=prod"}, 0},
		{"spindle_tasks", []string{"state=waiting", "pool=prod"}, 0},
		{"spindle_gpus_in_use", nil, 0},
		{"spindle_tasks_ended_total", []string{"state=killed", "pool=prod"}, 2},
		{"spindle_jobs", []string{"state=running", "pool=prod"}, 0},
		{"spindle_jobs_ended_total", []string{"state=cancelled", "pool=prod"}, 1},
	} {
		if got := value(f, c.name, c.labels...); got != c.want {
			t.Errorf("after the job's end: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if n := len(m.loop.stages) + len(m.loop.jobs) + len(m.loop.attempts); n != 0 || m.loop.inUse != 0 {
		t.Errorf("an ended job leaves %d things kept", n)
	}
}

// Thirds of a GPU summed come back to exactly one, and to exactly none;
// 0.7, which float64 times the scheduler's unit puts a hair under its
// share, to exactly 0.7.
func TestGPUsInUseSumFractionsExactly(t *testing.T) {
	m := New()
	m.Observe([]history.Event{{JobSubmitted: &history.JobSubmitted{ID: 1, Pool: "p", Stages: []history.StageInfo{{ID: 1, Tasks: 3, GPUs: 1.0 / 3}, {ID: 2, Tasks: 1, GPUs: 0.7}}}},
		started(0, 1, 0, 0, "e"), started(0, 1, 1, 0, "e"), started(0, 1, 2, 0, "e")})
	if got := value(scrape(t, m), "spindle_gpus_in_use"); got != 1 {
		t.Errorf("three thirds in use: %v", got)
	}
	m.Observe([]history.Event{started(0, 2, 0, 0, "e")})
	if got := value(scrape(t, m), "spindle_gpus_in_use"); got != 1.7 {
		t.Errorf("three thirds and 0.7 in use: %v", got)
	}
	m.Observe([]history.Event{ended(1, 1, 0, 0, history.TaskSucceeded), ended(1, 1, 1, 0, history.TaskSucceeded), ended(1, 1, 2, 0, history.TaskSucceeded),
		ended(1, 2, 0, 0, history.TaskSucceeded)})
	f := scrape(t, m)
	if got := value(f, "spindle_gpus_in_use"); got != 0 {
		t.Errorf("none in use: %v", got)
	}
	if got := value(f, "spindle_tasks", "state=waiting", "pool=p"); got != 0 {
		t.Errorf("every task succeeded, yet %v wait", got)
	}
}

// Executors active are a gauge by profile, those removed and lost
// counters by profile, GPUs held are the active executors', and a lost
// executor counts by blame, its attempts leaving the running figures.
func TestExecutorsAndLossesByBlame(t *testing.T) {
	m := New()
	f := scrape(t, m)
	if value(f, "spindle_executor_losses_total", "blame=task") != 0 || value(f, "spindle_executor_losses_total", "blame=none") != 0 {
		t.Errorf("losses are not there at 0 from the start")
	}
	m.Observe([]history.Event{at(0, prodJob),
		{ExecutorAdded: &history.ExecutorAdded{ID: "e1", Profile: "0", GPUs: []string{"0", "1"}}},
		{ExecutorAdded: &history.ExecutorAdded{ID: "e2", Profile: "1", GPUs: []string{"0"}}},
		{ExecutorAdded: &history.ExecutorAdded{ID: "e3", Profile: "1"}},
		{ExecutorAdded: &history.ExecutorAdded{ID: "e3", Profile: "1"}}, // twice: once counted
		{ExecutorAdded: &history.ExecutorAdded{ID: "e4", Profile: "1"}},
		started(1, 10, 0, 0, "e1"), started(1, 10, 1, 0, "e2"), started(1, 10, 2, 0, "e2")})
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"spindle_executors", []string{"state=active", "profile=0"}, 1},
		{"spindle_executors", []string{"state=active", "profile=1"}, 3},
		{"spindle_executors_removed_total", []string{"profile=1"}, 0}, // there at 0
		{"spindle_executors_lost_total", []string{"profile=0"}, 0},
		{"spindle_gpus_held", nil, 3},
		{"spindle_gpus_in_use", nil, 1.5},
	} {
		if got := value(f, c.name, c.labels...); got != c.want {
			t.Errorf("3 executors: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	m.Observe([]history.Event{{ExecutorRemoved: &history.ExecutorRemoved{ID: "e2", Lost: true, TaskFault: true}},
		{ExecutorRemoved: &history.ExecutorRemoved{ID: "e3", Lost: true}},
		{ExecutorRemoved: &history.ExecutorRemoved{ID: "e4", Lost: true}},
		{ExecutorRemoved: &history.ExecutorRemoved{ID: "e9", Lost: true}}, // never added: no loss
		{AppEnded: &history.AppEnded{}}})
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"spindle_executor_losses_total", []string{"blame=task"}, 1},
		{"spindle_executor_losses_total", []string{"blame=none"}, 2},
		{"spindle_executors_lost_total", []string{"profile=1"}, 3},
		{"spindle_executors_removed_total", []string{"profile=1"}, 0},
		{"spindle_executors", []string{"state=active", "profile=1"}, 0},
		{"spindle_executors_removed_total", []string{"profile=0"}, 1}, // at the application's end
		{"spindle_executors_lost_total", []string{"profile=0"}, 0},
		{"spindle_executors", []string{"state=active", "profile=0"}, 0},
		{"spindle_gpus_held", nil, 0},
		{"spindle_tasks", []string{"state=running", "pool=prod"}, 1}, // e1's
		{"spindle_tasks", []string{"state=waiting", "pool=prod"}, 4},
		{"spindle_gpus_in_use", nil, 0.5},
	} {
		if got := value(f, c.name, c.labels...); got != c.want {
			t.Errorf("after the losses: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, mt := range f["spindle_executors"].GetMetric() {
		for _, l := range mt.GetLabel() {
			if l.GetName() == "state" && l.GetValue() != "active" {
				t.Errorf("spindle_executors holds a state that is no executor's now: %v", mt)
			}
		}
	}
	for _, name := range []string{"spindle_executors_removed_total", "spindle_executors_lost_total"} {
		if typ := f[name].GetType(); typ != dto.MetricType_COUNTER {
			t.Errorf("%s is a %v, want a counter", name, typ)
		}
	}
}

// Containers asked count each ask once: a lowered ask adds nothing.
func TestContainersAskedAllocatedReleased(t *testing.T) {
	m := New()
	m.AllocateSent([]core.Ask{{ID: 1, Count: 3}, {ID: 2, Count: 2}}, 0)
	m.AllocateSent([]core.Ask{{ID: 2, Count: 1}}, 2) // lowered, and two released
	m.Allocated(4)
	m.AllocateTook(30 * time.Millisecond)
	f := scrape(t, m)
	for name, want := range map[string]float64{"spindle_containers_asked_total": 5, "spindle_containers_allocated_total": 4,
		"spindle_containers_released_total": 2, "spindle_allocate_duration_seconds": 1} {
		if got := value(f, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if s := histogramSum(f, "spindle_allocate_duration_seconds"); s != 0.03 {
		t.Errorf("allocate took %vs in all, want 0.03s", s)
	}
}

// A driver without metrics calls a nil *Metrics, which does nothing.
func TestNilMetricsDoNothing(t *testing.T) {
	var m *Metrics
	m.Observe([]history.Event{at(0, prodJob)})
	m.AllocateSent([]core.Ask{{ID: 1, Count: 1}}, 1)
	m.Allocated(1)
	m.AllocateTook(time.Second)
	m.JournalWritten(1, 1)
	m.JournalRefused(1)
}

// The journal's size is the last the writer said; its segments written
// and refused are counted.
func TestJournalSizeAndSegments(t *testing.T) {
	m := New()
	m.JournalWritten(100, 100)
	m.JournalWritten(20, 120)
	m.JournalRefused(300 << 20)
	f := scrape(t, m)
	for name, want := range map[string]float64{
		"spindle_journal_bytes":                  120,
		"spindle_journal_segments_written_total": 2,
		"spindle_journal_segments_refused_total": 1,
	} {
		if got := value(f, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
}
