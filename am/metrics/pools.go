package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A pool's series last as long as the scheduler keeps the pool: one
// made for a job's pool name is forgotten once no job is left in it,
// ended jobs' attempts still running included (scheduler.removePool), so
// its series go then, and a later job naming it starts them afresh at 0
// (a counter reset, which rate() takes). A pool the configuration
// defines, and the default pool, stay: the application's first events
// name them (history.Event.Pools). A session's scrape thus grows with
// the pools in use, not with every name it was ever given.

// pool is one pool's children of the vectors, looked up once: an
// attempt's start and end touch these, no label map.
type pool struct {
	name                       string
	tasksRunning, tasksWaiting prometheus.Gauge
	jobs                       prometheus.Gauge
	ended                      [len(endStates)]prometheus.Counter
	durations                  [len(endStates)]prometheus.Observer
	running                    poolUse
}

// poolUse is what keeps a pool: its running jobs, and the attempts
// running in it, those of its ended jobs included.
type poolUse struct{ jobs, attempts int }

func (m *Metrics) pool(name string) *pool {
	p := m.loop.pools[name]
	if p != nil {
		return p
	}
	p = &pool{name: name, tasksRunning: m.tasks.WithLabelValues(stateRunning, name), tasksWaiting: m.tasks.WithLabelValues(stateWaiting, name),
		jobs: m.jobs.WithLabelValues(history.JobRunning, name)}
	for i, s := range endStates {
		p.ended[i] = m.tasksEnded.WithLabelValues(s, name)
		p.durations[i] = m.taskDurations.WithLabelValues(name, s)
	}
	m.loop.pools[name] = p
	return p
}

// poolsKept takes the pools the application starts with: the
// configured ones and the default, which are never forgotten.
func (m *Metrics) poolsKept(pools []history.PoolInfo) {
	for _, p := range pools {
		m.loop.kept[p.Name] = true
	}
}

// release forgets p and drops its series once nothing keeps it.
func (m *Metrics) release(p *pool) {
	if p.running != (poolUse{}) || m.loop.kept[p.name] || p.name == scheduler.DefaultPool {
		return
	}
	delete(m.loop.pools, p.name)
	of := prometheus.Labels{"pool": p.name}
	m.tasks.DeletePartialMatch(of)
	m.tasksEnded.DeletePartialMatch(of)
	m.taskDurations.DeletePartialMatch(of)
	m.jobs.DeletePartialMatch(of)
	m.jobsEnded.DeletePartialMatch(of)
}
