package metrics

import (
	"math"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Task states as labels: spindle_tasks' and those an attempt ends in.
const (
	stateRunning = "running"
	stateWaiting = "waiting"
)

// endStates are the states an attempt ends in, in pool.ended's order.
var endStates = [...]string{history.TaskSucceeded, history.TaskFailed, history.TaskKilled}

type job struct {
	pool   *pool
	stages []int64
}

type stage struct {
	pool                      *pool
	share                     scheduler.Share // each task's GPUs
	tasks, succeeded, running int
	waiting                   int // what it adds to its pool's waiting now
	jobEnded                  bool
}

type taskKey struct {
	stage int64
	index int
}

// attempt is a running attempt.
type attempt struct {
	n        int
	started  time.Time
	stage    *stage
	executor string
}

func (m *Metrics) jobSubmitted(js *history.JobSubmitted) {
	if m.loop.jobs[js.ID] != nil {
		return
	}
	j := &job{pool: m.pool(js.Pool)}
	for _, info := range js.Stages {
		if m.loop.stages[info.ID] != nil {
			continue
		}
		st := &stage{pool: j.pool, share: scheduler.Share(math.Round(info.GPUs * float64(scheduler.One))), tasks: info.Tasks}
		st.recount()
		m.loop.stages[info.ID] = st
		j.stages = append(j.stages, info.ID)
	}
	m.loop.jobs[js.ID] = j
	j.pool.running.jobs++
	j.pool.jobs.Inc()
}

// jobEnded forgets the job: its attempts still running keep their stage
// until they end.
func (m *Metrics) jobEnded(je *history.JobEnded) {
	j := m.loop.jobs[je.ID]
	if j == nil {
		return
	}
	delete(m.loop.jobs, je.ID)
	for _, id := range j.stages {
		st := m.loop.stages[id]
		delete(m.loop.stages, id)
		st.jobEnded = true
		st.recount()
	}
	j.pool.running.jobs--
	j.pool.jobs.Dec()
	m.jobsEnded.WithLabelValues(je.State, j.pool.name).Inc()
	m.release(j.pool)
}

func (m *Metrics) taskStarted(e *history.Event) {
	ts := e.TaskStarted
	st := m.loop.stages[ts.Stage]
	if st == nil {
		return
	}
	key := taskKey{ts.Stage, ts.Index}
	if old, ok := m.loop.attempts[key]; ok {
		m.stop(old) // an attempt lost that nobody reported ended
	}
	m.loop.attempts[key] = attempt{n: ts.Attempt, started: e.Time, stage: st, executor: ts.Executor}
	st.running++
	st.pool.running.attempts++
	st.pool.tasksRunning.Inc()
	m.useGPUs(st.share)
	st.recount()
}

func (m *Metrics) taskEnded(e *history.Event) {
	te := e.TaskEnded
	key := taskKey{te.Stage, te.Index}
	a, ok := m.loop.attempts[key]
	if !ok || a.n != te.Attempt {
		return // an older attempt's end, or told twice
	}
	i := endIndex(te.State)
	if i < 0 {
		return
	}
	delete(m.loop.attempts, key)
	m.stop(a)
	if i == 0 {
		a.stage.succeeded++
	}
	a.stage.recount()
	a.stage.pool.ended[i].Inc()
	a.stage.pool.durations[i].Observe(max(e.Time.Sub(a.started).Seconds(), 0))
	m.release(a.stage.pool)
}

// stop takes a running attempt's part out of the running figures (the
// caller recounts its stage).
func (m *Metrics) stop(a attempt) {
	a.stage.running--
	a.stage.pool.running.attempts--
	a.stage.pool.tasksRunning.Dec()
	m.useGPUs(-a.stage.share)
}

// useGPUs adds share to the GPUs in use (or takes it away).
func (m *Metrics) useGPUs(share scheduler.Share) {
	m.loop.inUse += share
	m.gpusInUse.Set(float64(m.loop.inUse) / float64(scheduler.One))
}

// recount brings its pool's waiting tasks up to date: a running job's
// tasks neither running nor succeeded (as the REST API counts them).
func (st *stage) recount() {
	w := 0
	if !st.jobEnded {
		w = max(st.tasks-st.succeeded-st.running, 0)
	}
	if d := w - st.waiting; d != 0 {
		st.pool.tasksWaiting.Add(float64(d))
		st.waiting = w
	}
}

func endIndex(state string) int {
	for i, s := range endStates {
		if s == state {
			return i
		}
	}
	return -1
}
