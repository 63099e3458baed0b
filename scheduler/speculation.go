package scheduler

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Speculation, as Spark's (TaskSetManager.checkSpeculatableTasks): once
// Quantile of a stage's tasks have succeeded, a task that has run longer
// than max(MinTaskRuntime, Multiplier × the median run time of its
// stage's successful tasks) is a straggler, and gets one copy: a second
// attempt of the same task, on another executor than the one running
// it. The first of the two to succeed wins; the other is killed, and
// neither runs again nor counts as failed for it. A copy takes only what
// placement left over in a round: regular tasks come first, as within
// one of Spark's task sets. Gang stages never speculate (a gang's ranks
// are not interchangeable runs of one task).
//
// The check costs nothing until a stage has reached its quantile, and
// then runs only when a Ready comes at or after the earliest moment a
// running task could become a straggler (Wakeup includes it), or after a
// success moved the median.

// SpeculationConfig is spindle.speculation.*.
type SpeculationConfig struct {
	// Enabled is the default of stages that do not say
	// (StageSpec.Speculation); off by default, as Spark's.
	Enabled bool
	// Multiplier: how many times the median a straggler has run
	// (default 1.5).
	Multiplier float64
	// Quantile of a stage's tasks that must have succeeded first
	// (default 0.75).
	Quantile float64
	// MinTaskRuntime: no task is a straggler before running this long
	// (default 100ms).
	MinTaskRuntime time.Duration
}

func (c SpeculationConfig) withDefaults() SpeculationConfig {
	if c.Multiplier <= 0 {
		c.Multiplier = 1.5
	}
	if c.Quantile <= 0 || c.Quantile > 1 {
		c.Quantile = 0.75
	}
	if c.MinTaskRuntime <= 0 {
		c.MinTaskRuntime = 100 * time.Millisecond
	}
	return c
}

// speculation is a speculating stage's record of its tasks' run times
// and copies.
type speculation struct {
	started map[int32]ownRun // each task's own attempt, running

	durations []time.Duration // of the successful tasks, sorted
	minDone   int             // successes before any task is a straggler
	copies    map[int32]*taskCopy
	queue     []int32 // stragglers whose copy waits for an executor
	// due: the earliest a running task may be a straggler; checked at
	// the first Ready from then on, when armed.
	due   time.Time
	armed bool
}

// ownRun is a task's own attempt: when it started, its number (a copy
// that ended leaves it other than the task's last).
type ownRun struct {
	at      time.Time
	attempt int32
}

// taskCopy is the second attempt of a task: its speculative copy, queued
// (exec nil) or running, or the losing attempt being killed.
type taskCopy struct {
	exec    *executor
	slot    int32
	attempt int32 // this attempt's number
	orig    int32 // the number of the task's own attempt
	start   time.Time
	killing bool
}

// speculates says whether a stage of spec speculates under cfg.
func speculates(cfg SpeculationConfig, spec StageSpec) bool {
	if spec.Gang {
		return false
	}
	if spec.Speculation != nil {
		return *spec.Speculation
	}
	return cfg.Enabled
}

func newSpeculation(cfg SpeculationConfig, tasks int) *speculation {
	return &speculation{
		started: map[int32]ownRun{},
		copies:  map[int32]*taskCopy{},
		minDone: max(int(math.Floor(cfg.Quantile*float64(tasks))), 1),
	}
}

// threshold is how long a task runs before it is a straggler; ok is
// false while too few tasks succeeded to say.
func (s *Scheduler) threshold(st *stage) (d time.Duration, ok bool) {
	sp := st.specul
	if st.succeeded < sp.minDone || len(sp.durations) == 0 {
		return 0, false
	}
	median := sp.durations[len(sp.durations)/2]
	if len(sp.durations)%2 == 0 {
		median = (sp.durations[len(sp.durations)/2-1] + median) / 2
	}
	cfg := s.cfg.Speculation
	return max(cfg.MinTaskRuntime, time.Duration(cfg.Multiplier*float64(median))), true
}

// started records that st's task idx launched attempt at now.
func (s *Scheduler) started(now time.Time, st *stage, idx, attempt int) {
	sp := st.specul
	sp.started[int32(idx)] = ownRun{now, int32(attempt)}
	if d, ok := s.threshold(st); ok {
		sp.arm(now.Add(d + 1))
	}
}

// arm has the stage checked for stragglers from at on, if not earlier.
func (sp *speculation) arm(at time.Time) {
	if !sp.armed || at.Before(sp.due) {
		sp.due, sp.armed = at, true
	}
}

// succeededIn records a successful run of d: the median moves, so the
// stage is checked at the next Ready.
func (sp *speculation) succeededIn(d time.Duration) {
	i, _ := slices.BinarySearch(sp.durations, d)
	sp.durations = slices.Insert(sp.durations, i, d)
	sp.recheck()
}

// recheck has the stage checked for stragglers at the next Ready.
func (sp *speculation) recheck() { sp.due, sp.armed = time.Time{}, true }

// ran records the run time of task key's own attempt, succeeded at now,
// if it was launched here (not adopted after a restart).
func (sp *speculation) ran(now time.Time, key int32) {
	if run, ok := sp.started[key]; ok {
		sp.succeededIn(now.Sub(run.at))
	}
}

// runningCopy is the copy or losing attempt id names, if it runs.
func (st *stage) runningCopy(id AttemptID) *taskCopy {
	if st.specul == nil {
		return nil
	}
	c := st.specul.copies[int32(id.Task.Index)]
	if c == nil || c.exec == nil || int(c.attempt) != id.Attempt {
		return nil
	}
	return c
}

// ownAttempt is the number of task idx's own attempt: t's last, but
// where a copy ran beside it.
func (st *stage) ownAttempt(t *task, idx int) int {
	if st.specul != nil {
		if run, ok := st.specul.started[int32(idx)]; ok {
			return int(run.attempt)
		}
	}
	return int(t.attempts) - 1
}

// originalEnded moves st's task idx, t, on from the end of its own
// attempt, whose resources are given back. Under speculation a success
// kills a running copy, and a failure leaves the copy running as the
// task's attempt, not retrying it.
func (s *Scheduler) originalEnded(now time.Time, st *stage, t *task, idx int, r TaskResult, h *host) {
	sp := st.specul
	if sp == nil {
		s.attemptEnded(now, st, t, idx, r, h)
		return
	}
	key := int32(idx)
	c := sp.copies[key]
	if c == nil || c.exec == nil || c.killing || t.state != taskRunning {
		if c != nil && c.exec == nil {
			delete(sp.copies, key) // queued: not needed any more
		}
		if r.Outcome == Succeeded && t.state == taskRunning {
			sp.ran(now, key)
		}
		delete(sp.started, key)
		s.attemptEnded(now, st, t, idx, r, h)
		return
	}
	s.countStopped(st)
	if r.Outcome == Succeeded {
		sp.ran(now, key)
		delete(sp.started, key)
		s.killLoser(st, idx, c, lost(idx))
		s.succeed(now, st, t, idx)
		return
	}
	// The copy goes on as the task's own attempt.
	t.exec, t.slot = c.exec, c.slot
	c.exec.running[c.slot].copy = false
	sp.started[key] = ownRun{c.start, c.attempt}
	delete(sp.copies, key)
	sp.recheck()
	s.failAside(now, st, t, idx, r, h)
}

// copyEnded moves st's task idx on from the end of its copy or losing
// attempt c, whose resources are given back.
func (s *Scheduler) copyEnded(now time.Time, st *stage, idx int, c *taskCopy, r TaskResult, h *host) {
	sp := st.specul
	key := int32(idx)
	s.countStopped(st)
	delete(sp.copies, key)
	j := st.job
	if c.killing {
		j.killing--
		s.forgetIfDone(j)
		return
	}
	t := st.at(key)
	if r.Outcome != Succeeded {
		sp.recheck() // the task may straggle on, and get another copy
		s.failAside(now, st, t, idx, r, h)
		return
	}
	// The copy won: the task's own attempt is the loser now.
	sp.succeededIn(now.Sub(c.start))
	delete(sp.started, key)
	loser := &taskCopy{exec: t.exec, slot: t.slot, attempt: c.orig, orig: c.orig}
	loser.exec.running[loser.slot].copy = true
	sp.copies[key] = loser
	t.exec = nil
	s.killLoser(st, idx, loser, lost(idx))
	s.succeed(now, st, t, idx)
}

// lost is why the losing attempt of task idx is killed.
func lost(idx int) string {
	return fmt.Sprintf("another attempt of task %d succeeded first", idx)
}

// killLoser has c, an attempt of st's task idx, killed for reason: its
// job waits for its report, as for any kill.
func (s *Scheduler) killLoser(st *stage, idx int, c *taskCopy, reason string) {
	c.killing = true
	st.job.killing++
	if c.exec.removed {
		return // RemoveExecutor ends it next
	}
	s.out.Kills = append(s.out.Kills, Kill{
		Attempt:  AttemptID{TaskID{st.id, idx}, int(c.attempt)},
		Executor: c.exec.spec.ID,
		Reason:   reason,
	})
}

// failAside counts a failure of one of a task's two attempts while the
// other runs on: not retried (the other may yet succeed), but counted
// against the task and its host as any, failing the job at maxFailures.
func (s *Scheduler) failAside(now time.Time, st *stage, t *task, idx int, r TaskResult, h *host) {
	if r.Blameless {
		return
	}
	j := st.job
	t.failures++
	j.failedAttempts++
	s.out.Failures = append(s.out.Failures, TaskID{st.id, idx})
	if !r.Permanent {
		s.hostFailure(now, h)
	}
	if r.Permanent || int(t.failures) >= st.maxFailures {
		s.endJob(j, failureReason(st, t, idx, r))
	}
}

// killCopies has st's running copies killed for its job's end, in index
// order, and drops those queued.
func (s *Scheduler) killCopies(st *stage, reason string) {
	sp := st.specul
	sp.queue = sp.queue[:0]
	keys := make([]int32, 0, len(sp.copies))
	for k := range sp.copies {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c := sp.copies[k]
		switch {
		case c.exec == nil:
			delete(sp.copies, k)
		case !c.killing:
			s.killLoser(st, int(k), c, reason)
		}
	}
}
