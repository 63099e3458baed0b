package metrics

import (
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/scheduler"
)

// loopState is what the figures are kept from: the loop's alone (Observe
// and AllocateSent), bounded by the running jobs, the running attempts
// and the active executors; nothing of an ended job stays but its
// attempts still running.
type loopState struct {
	pools    map[string]*pool
	kept     map[string]bool // pools never forgotten (pools.go)
	jobs     map[int64]*job
	stages   map[int64]*stage
	attempts map[taskKey]attempt
	execs    map[string]executor
	// inUse sums the running attempts' GPU shares in the scheduler's
	// fixed point, where 1/n and six-place decimals are exact: fractions
	// added and taken away come back to exactly 0, thirds to exactly 1.
	inUse scheduler.Share
	held  int
	// lastAsk is the newest allocation request id counted (containers.go).
	lastAsk int64
}

func newLoopState() loopState {
	return loopState{pools: map[string]*pool{}, kept: map[string]bool{}, jobs: map[int64]*job{}, stages: map[int64]*stage{},
		attempts: map[taskKey]attempt{}, execs: map[string]executor{}}
}

// Observe takes a turn's events, in order. Events that do not fit what
// came before (a task of a stage never submitted, an attempt's end told
// twice) change nothing, as the history's Store skips them.
func (m *Metrics) Observe(events []history.Event) {
	if m == nil {
		return
	}
	for i := range events {
		e := &events[i]
		switch {
		case e.Pools != nil:
			m.poolsKept(e.Pools)
		case e.JobSubmitted != nil:
			m.jobSubmitted(e.JobSubmitted)
		case e.JobEnded != nil:
			m.jobEnded(e.JobEnded)
		case e.TaskStarted != nil:
			m.taskStarted(e)
		case e.TaskEnded != nil:
			m.taskEnded(e)
		case e.ExecutorAdded != nil:
			m.executorAdded(e.ExecutorAdded)
		case e.ExecutorRemoved != nil:
			m.executorRemoved(e.ExecutorRemoved)
		case e.AppEnded != nil:
			m.appEnded()
		}
	}
}
