package faultsim

import (
	"fmt"
	"maps"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The invariants a run is checked against, over its history: what ran
// where and when, as the executors ran it, not the AM's view of it.
const (
	SucceededRunsAgain = "a succeeded task never runs again"
	TwoAtOnce          = "never two running attempts of one task"
	JobResult          = "every job ends with the result its tasks gave"
	IDReused           = "no id is reused"
	OthersJob          = "a client never follows another's job"
	// Beyond the five: what no fault corrupted is never
	// refused, and the run comes to its end.
	JournalRefused = "a journal no fault corrupted is read back"
	Stalled        = "every client's job ends, or is said lost"
)

// Violation is an invariant broken.
type Violation struct {
	Invariant string
	At        time.Duration
	What      string
}

func (v *Violation) String() string {
	return fmt.Sprintf("at %v: %s: %s", v.At, v.Invariant, v.What)
}

type stageRef struct {
	job   string
	stage int
}

// history is what happened, as the world saw it.
type history struct {
	w    *world
	runs []*run
	live map[taskKey][]*run
	// succeeded: a run of the task succeeded; failedRuns: how many of
	// its runs failed.
	succeeded  map[taskKey]bool
	failedRuns map[taskKey]int
	// durable are the tasks whose success is in a journal segment
	// written after the AM that wrote it heard of it.
	durable map[taskKey]bool
	// durableFailures are the failures counted against each task in
	// the last journal segment written.
	durableFailures map[taskKey]int
	attempts        map[scheduler.AttemptID]taskKey
	jobIDs          map[scheduler.JobID]string
	stageIDs        map[scheduler.StageID]stageRef
	jobsEnded       int
}

func newHistory(w *world) *history {
	return &history{w: w, live: map[taskKey][]*run{}, succeeded: map[taskKey]bool{}, failedRuns: map[taskKey]int{}, durable: map[taskKey]bool{}, durableFailures: map[taskKey]int{},
		attempts: map[scheduler.AttemptID]taskKey{}, jobIDs: map[scheduler.JobID]string{}, stageIDs: map[scheduler.StageID]stageRef{}}
}

// violate notes an invariant broken: the run's first (Result.Broken)
// ends it, unless Options.Continue has it go on to find the others.
func (h *history) violate(invariant, what string) {
	w := h.w
	for _, v := range w.violations {
		if v.Invariant == invariant {
			return
		}
	}
	v := &Violation{Invariant: invariant, At: w.now.Sub(epoch), What: what}
	w.violations = append(w.violations, v)
	w.logf("BROKEN: %s: %s", invariant, what)
	if w.broken == nil {
		w.broken = v
	}
}

// launched checks a launch: a task the attempt knows succeeded runs
// again; an attempt, stage or job id given before to another.
func (h *history) launched(a *attempt, l core.TaskLaunch, t taskKey) {
	if a.knows(t) {
		how := "heard it succeed"
		if !a.heard[t] {
			how = "read it done in the journal"
		}
		h.violate(SucceededRunsAgain, fmt.Sprintf("attempt %d launched %s (attempt id %v) again, having %s", a.n, t, l.Attempt, how))
	} else if why := h.unjournalled(a, t); why != "" {
		h.violate(SucceededRunsAgain, fmt.Sprintf("attempt %d launched %s (attempt id %v) again: %s", a.n, t, l.Attempt, why))
	}
	a.launches[t] = append(a.launches[t], h.w.now)
	if prev, ok := h.attempts[l.Attempt]; ok {
		h.violate(IDReused, fmt.Sprintf("attempt %d launched %s as task attempt %v, the id of a launch of %s before", a.n, t, l.Attempt, prev))
	}
	h.attempts[l.Attempt] = t
	ref := stageRef{t.job, t.stage}
	if prev, ok := h.stageIDs[l.Attempt.Task.Stage]; ok && prev != ref {
		h.violate(IDReused, fmt.Sprintf("attempt %d launched stage %d as %s stage %d; it was %s stage %d", a.n, l.Attempt.Task.Stage, t.job, t.stage, prev.job, prev.stage))
	}
	h.stageIDs[l.Attempt.Task.Stage] = ref
	h.jobID(a, l.JobID, t.job)
}

// unjournalled says why a task an attempt that took the journal over
// launches, not knowing it succeeded, is not the documented exception
// (docs/reliability.md, "What is not survived": the last moment's
// successes): an earlier attempt heard it succeed more than a group
// commit's interval before it crashed, its store taking its writes, and
// never journalled it. "" when it is excused.
func (h *history) unjournalled(a *attempt, t taskKey) string {
	if !a.tookJournal {
		return ""
	}
	for _, p := range h.w.attempts[:a.n-1] {
		at, ok := p.heardAt[t]
		if !ok || p.writer == nil || p.crashed.IsZero() || p.failures > 0 {
			continue
		}
		if late := p.crashed.Sub(at); late > journal.CommitInterval {
			return fmt.Sprintf("attempt %d heard it succeed at %v and crashed %v later without journalling it, its store taking writes", p.n, at.Sub(epoch), late)
		}
	}
	return ""
}

// jobID checks that job id names one job only.
func (h *history) jobID(a *attempt, id scheduler.JobID, name string) {
	if prev, ok := h.jobIDs[id]; ok && prev != name {
		h.violate(IDReused, fmt.Sprintf("attempt %d calls job %d %s; it was %s", a.n, id, name, prev))
	}
	h.jobIDs[id] = name
}

// started checks a run against the task's other live runs.
func (h *history) started(r *run) {
	h.runs = append(h.runs, r)
	for _, q := range h.live[r.key] {
		if !h.excused(q, r) {
			h.violate(TwoAtOnce, fmt.Sprintf("%s runs as %v on %s (launched by attempt %d) while it runs as %v on %s since %v (launched by attempt %d)",
				r.key, r.attempt, r.x.id, r.by, q.attempt, q.x.id, q.start.Sub(epoch), q.by))
		}
	}
	h.live[r.key] = append(h.live[r.key], r)
}

// excused says whether two runs at once are the documented exception
// (docs/reliability.md, "What is not survived"): an RM that restarted
// named one's container, of an earlier attempt, to the attempt that
// launched the other only after it did.
func (h *history) excused(p, q *run) bool {
	if p.by == q.by {
		return false
	}
	early, late := p, q
	if late.by < early.by {
		early, late = late, early
	}
	a := h.w.attempts[late.by-1]
	named, ok := a.named[early.x.id]
	return h.w.rm.restarts > 0 && early.x.c.attempt < a.n && (!ok || named.After(late.launched))
}

func (h *history) ended(r *run) {
	runs := h.live[r.key]
	for i, q := range runs {
		if q == r {
			h.live[r.key] = append(runs[:i], runs[i+1:]...)
			break
		}
	}
	switch r.outcome {
	case succeededRun:
		h.succeeded[r.key] = true
	case failedRun:
		h.failedRuns[r.key]++
	}
}

// journalled notes a segment attempt a wrote: every success it heard of
// is in it, or in one before.
func (h *history) journalled(a *attempt) {
	for t := range a.heard {
		h.durable[t] = true
	}
	h.durableFailures = maps.Clone(a.counted)
}

// jobEnded checks a job's end against its tasks' runs: it succeeded
// only if every task did; it failed only if a task failed as often as
// it may.
func (h *history) jobEnded(a *attempt, s core.Summary) {
	h.jobsEnded++
	h.w.logf("attempt %d: job %d (%s) ended: succeeded %v %s", a.n, s.ID, s.Job, s.Succeeded, s.Reason)
	if why := h.wrongResult(s.Job, s.Succeeded); why != "" {
		h.violate(JobResult, fmt.Sprintf("attempt %d ended job %d (%s) %s", a.n, s.ID, s.Job, why))
	} else if why := a.failedOutright(s.Job); s.Succeeded && why != "" {
		h.violate(JobResult, fmt.Sprintf("attempt %d ended job %d (%s) SUCCEEDED, but %s", a.n, s.ID, s.Job, why))
	}
}

// failedOutright says which task of job has had as many failures
// counted against it as it may, in this attempt or in the journal it
// took over: its job must fail. "" for none.
func (a *attempt) failedOutright(job string) string {
	plan := a.w.jobPlan(job)
	for i := range plan.Tasks {
		if t := (taskKey{job, 0, i}); a.counted[t] >= MaxAttempts {
			return fmt.Sprintf("task %s had %d failures counted against it, of at most %d", t, a.counted[t], MaxAttempts)
		}
	}
	return ""
}

// wrongResult says why a job's end does not match its tasks' runs.
func (h *history) wrongResult(job string, succeeded bool) string {
	plan := h.w.jobPlan(job)
	if plan == nil {
		return "of no client"
	}
	for i := range plan.Tasks {
		t := taskKey{job, 0, i}
		switch {
		case succeeded && !h.succeeded[t]:
			return fmt.Sprintf("SUCCEEDED, but task %s never ran to success", t)
		case !succeeded && h.failedRuns[t] >= MaxAttempts:
			return ""
		}
	}
	if !succeeded {
		return fmt.Sprintf("FAILED, but no task of it failed %d times", MaxAttempts)
	}
	return ""
}

// refused: an attempt refused a journal (or a job of it) that no fault
// could have corrupted.
func (h *history) refused(a *attempt, err error) {
	h.violate(JournalRefused, fmt.Sprintf("attempt %d: %v", a.n, err))
}

func (h *history) stalled(why string) { h.violate(Stalled, why) }

func (h *history) appEnded(a *attempt, diag string) {
	h.violate(Stalled, fmt.Sprintf("attempt %d ended the application: %s", a.n, diag))
}
