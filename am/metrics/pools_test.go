package metrics

import (
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/spindle-yarn/spindle/am/history"
)

// poolSeries counts the series of every family that name pool.
func poolSeries(fams map[string]*dto.MetricFamily, pool string) map[string]int {
	n := map[string]int{}
	for name, f := range fams {
		for _, mt := range f.GetMetric() {
			for _, l := range mt.GetLabel() {
				if l.GetName() == "pool" && l.GetValue() == pool {
					n[name]++
				}
			}
		}
	}
	return n
}

// A pool made for a job's pool name loses its series when the scheduler
// forgets it: once no job is left in it and the attempts of its ended
// jobs have ended (or were lost with their executor). A configured pool
// and the default pool keep theirs; a pool named again starts afresh.
func TestAForgottenPoolsSeriesGo(t *testing.T) {
	m := New()
	job := func(id, stage int64, pool string) history.Event {
		return history.Event{JobSubmitted: &history.JobSubmitted{ID: id, Pool: pool, Stages: []history.StageInfo{{ID: stage, Tasks: 2}}}}
	}
	jobEnded := func(id int64) history.Event {
		return history.Event{JobEnded: &history.JobEnded{ID: id, State: history.JobCancelled}}
	}
	m.Observe([]history.Event{configuredProd, {ExecutorAdded: &history.ExecutorAdded{ID: "e1"}},
		job(1, 1, "tmp"), job(2, 2, "prod"), job(3, 3, "default"), job(4, 4, "brief"),
		started(1, 1, 0, 0, "e1"), started(1, 4, 0, 0, "e1"),
		jobEnded(1), jobEnded(2), jobEnded(3), jobEnded(4)})
	f := scrape(t, m)
	for _, pool := range []string{"tmp", "brief"} {
		if n := poolSeries(f, pool); n["spindle_tasks"] != 2 || n["spindle_tasks_ended_total"] != 3 || n["spindle_jobs_ended_total"] != 1 {
			t.Errorf("pool %s with an attempt still running has series %v", pool, n)
		}
	}
	m.Observe([]history.Event{ended(2, 1, 0, 0, history.TaskKilled), // tmp's last attempt
		{ExecutorRemoved: &history.ExecutorRemoved{ID: "e1", Lost: true}}}) // brief's, lost
	f = scrape(t, m)
	for _, pool := range []string{"tmp", "brief"} {
		if n := poolSeries(f, pool); len(n) != 0 {
			t.Errorf("forgotten pool %s keeps series %v", pool, n)
		}
	}
	for _, pool := range []string{"prod", "default"} {
		if n := poolSeries(f, pool); n["spindle_jobs_ended_total"] != 1 || n["spindle_tasks"] != 2 {
			t.Errorf("pool %s, configured or the default, lost its series: %v", pool, n)
		}
	}
	if len(m.loop.pools) != 2 {
		t.Errorf("%d pools kept, want prod and default", len(m.loop.pools))
	}

	m.Observe([]history.Event{job(5, 5, "tmp")})
	f = scrape(t, m)
	if got := value(f, "spindle_tasks", "state=waiting", "pool=tmp"); got != 2 {
		t.Errorf("pool tmp named again: %v tasks waiting, want 2", got)
	}
	if got := value(f, "spindle_tasks_ended_total", "state=killed", "pool=tmp"); got != 0 {
		t.Errorf("pool tmp named again counts %v attempts killed, want 0 afresh", got)
	}
}
