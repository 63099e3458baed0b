package faultsim

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
)

// taskKey is a task as the world knows it: its job's name (unique in a
// run), its stage and its index. The history is kept by these, not by
// the ids an AM gave, which the invariants check.
type taskKey struct {
	job          string
	stage, index int
}

type outcome int

const (
	succeededRun outcome = iota
	failedRun
	killedRun
)

// run is a task attempt's process on an executor, from its start to its
// end.
type run struct {
	x       *executor
	key     taskKey
	attempt scheduler.AttemptID
	by      int // the AM attempt that launched it
	// launched is when that attempt launched it.
	launched time.Time
	gpus     []string
	start    time.Time
	end      time.Time
	ended    bool
	outcome  outcome
}

// launch starts an attempt the AM sent, unless the executor already
// runs it.
func (x *executor) launch(l core.TaskLaunch, key taskKey, by int, launched time.Time) {
	for _, r := range x.runs {
		if r.attempt == l.Attempt {
			return
		}
	}
	r := &run{x: x, key: key, attempt: l.Attempt, by: by, launched: launched, gpus: l.GPUs, start: x.w.now}
	x.runs = append(x.runs, r)
	x.w.logf("%s starts %s (attempt %v, launched by attempt %d)", x.id, key, l.Attempt, by)
	x.w.h.started(r)
	x.w.count("task run")
	took := x.w.between(500*time.Millisecond, 6*time.Second)
	if p := x.w.jobPlan(key.job); p != nil && p.Long {
		took = x.w.between(10*time.Second, 40*time.Second)
	}
	x.w.after(took, func() {
		if r.ended {
			return
		}
		if x.w.h.failedRuns[key] < x.w.failing(key) {
			r.finish(failedRun, "exit status 1")
			return
		}
		r.finish(succeededRun, "")
	})
}

// kill stops an attempt, as the AM asked.
func (x *executor) kill(a scheduler.AttemptID) {
	for _, r := range x.runs {
		if r.attempt == a {
			r.stopAt(x.w.now.Add(x.w.between(0, 500*time.Millisecond)), "killed by the AM")
		}
	}
}

// stopAt ends the run at t, killed, unless it ended before.
func (r *run) stopAt(t time.Time, why string) {
	r.x.w.at(t, func() {
		if !r.ended {
			r.finish(killedRun, why)
		}
	})
}

// finish ends the run now; its executor reports how, unless it died
// with it.
func (r *run) finish(o outcome, why string) {
	x := r.x
	r.ended, r.end, r.outcome = true, x.w.now, o
	for i, q := range x.runs {
		if q == r {
			x.runs = append(x.runs[:i], x.runs[i+1:]...)
			break
		}
	}
	x.w.logf("%s ends %s (attempt %v): %s %s", x.id, r.key, r.attempt, [...]string{"succeeded", "failed", "killed"}[o], why)
	x.w.h.ended(r)
	if x.gone {
		return
	}
	st := core.TaskStatus{Attempt: r.attempt, State: core.TaskKilled, Reason: why}
	switch o {
	case succeededRun:
		st.State = core.TaskSucceeded
	case failedRun:
		st.State, st.ExitCode = core.TaskFailed, 1
	}
	x.report(status{st: st, key: r.key})
}
