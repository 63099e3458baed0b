package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/spindle-yarn/spindle/am/history"
)

// execActive is the one state spindle_executors has: the REST API's
// for an executor now held. A gauge holds what is now; how executors
// went (removed, lost) has happened, and is counted
// (spindle_executors_removed_total, _lost_total) for rate() and
// increase() to read, as Prometheus's rules have it.
const execActive = "active"

// Blame, as spindle_executor_losses_total labels it: whether a lost
// executor's running tasks were blamed (a failed attempt each).
const (
	BlameTask = "task"
	BlameNone = "none"
)

// executor is an active executor.
type executor struct {
	profile string
	gpus    int
}

func (m *Metrics) executorAdded(x *history.ExecutorAdded) {
	if _, ok := m.loop.execs[x.ID]; ok {
		return
	}
	m.loop.execs[x.ID] = executor{profile: x.Profile, gpus: len(x.GPUs)}
	m.executors.WithLabelValues(execActive, x.Profile).Inc()
	m.removed.WithLabelValues(x.Profile) // there at 0 from its profile's first executor
	m.lost.WithLabelValues(x.Profile)
	m.holdGPUs(len(x.GPUs))
}

// executorRemoved moves the executor out of the active ones; its
// attempts still running, lost with it, leave the running figures
// (their ends never come).
func (m *Metrics) executorRemoved(r *history.ExecutorRemoved) {
	gone := m.removed
	if r.Lost {
		gone = m.lost
	}
	if !m.remove(r.ID, gone) {
		return
	}
	if r.Lost {
		blame := BlameNone
		if r.TaskFault {
			blame = BlameTask
		}
		m.losses.WithLabelValues(blame).Inc()
	}
	for key, a := range m.loop.attempts {
		if a.executor == r.ID {
			delete(m.loop.attempts, key)
			m.stop(a)
			a.stage.recount()
			m.release(a.stage.pool)
		}
	}
}

// appEnded counts every executor still active removed, as the REST API
// does.
func (m *Metrics) appEnded() {
	for id := range m.loop.execs {
		m.remove(id, m.removed)
	}
}

// remove takes the executor out of the active ones and counts it in
// gone (m.removed or m.lost).
func (m *Metrics) remove(id string, gone *prometheus.CounterVec) bool {
	x, ok := m.loop.execs[id]
	if !ok {
		return false
	}
	delete(m.loop.execs, id)
	m.gpuUse.forget(id)
	m.executors.WithLabelValues(execActive, x.profile).Dec()
	gone.WithLabelValues(x.profile).Inc()
	m.holdGPUs(-x.gpus)
	return true
}

func (m *Metrics) holdGPUs(n int) {
	m.loop.held += n
	m.gpusHeld.Set(float64(m.loop.held))
}
