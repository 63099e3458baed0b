package metrics

import "github.com/spindle-yarn/spindle/am/history"

// Executor states as spindle_executors labels them (the REST API's).
const (
	execActive  = "active"
	execRemoved = "removed"
	execLost    = "lost"
)

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
	m.holdGPUs(len(x.GPUs))
}

// executorRemoved moves the executor out of the active ones; its
// attempts still running, lost with it, leave the running figures
// (their ends never come).
func (m *Metrics) executorRemoved(r *history.ExecutorRemoved) {
	state := execRemoved
	if r.Lost {
		state = execLost
	}
	if !m.remove(r.ID, state) {
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
		}
	}
}

// appEnded counts every executor still active removed, as the REST API
// does.
func (m *Metrics) appEnded() {
	for id := range m.loop.execs {
		m.remove(id, execRemoved)
	}
}

func (m *Metrics) remove(id, state string) bool {
	x, ok := m.loop.execs[id]
	if !ok {
		return false
	}
	delete(m.loop.execs, id)
	m.executors.WithLabelValues(execActive, x.profile).Dec()
	m.executors.WithLabelValues(state, x.profile).Inc()
	m.holdGPUs(-x.gpus)
	return true
}

func (m *Metrics) holdGPUs(n int) {
	m.loop.held += n
	m.gpusHeld.Set(float64(m.loop.held))
}
