package scheduler

import (
	"fmt"
	"time"
)

// TaskFinished reports how an attempt ended, as executor on reports it.
// A report for an attempt that is not running, or that runs on another
// executor than on, returns ErrStaleAttempt and changes nothing: only
// the executor running an attempt says how it ended (a kept executor of
// an earlier ApplicationMaster attempt may report a task and attempt
// number that run elsewhere now).
func (s *Scheduler) TaskFinished(now time.Time, on ExecutorID, id AttemptID, r TaskResult) error {
	st := s.stages[id.Task.Stage]
	if st == nil {
		return fmt.Errorf("%v: %w", id, ErrStaleAttempt)
	}
	if c := st.runningCopy(id); c != nil {
		ex := c.exec
		if ex.spec.ID != on {
			return fmt.Errorf("%v: reported by executor %s, it runs on %s: %w", id, on, ex.spec.ID, ErrStaleAttempt)
		}
		err := ex.release(now, st, c.slot)
		c.exec = nil
		s.copyEnded(now, st, id.Task.Index, c, r, ex.host)
		return err
	}
	t := st.task(id.Task.Index)
	if t == nil || (t.state != taskRunning && t.state != taskKilling && t.state != taskStopping) || st.ownAttempt(t, id.Task.Index) != id.Attempt || t.exec == nil {
		return fmt.Errorf("%v: %w", id, ErrStaleAttempt)
	}
	ex := t.exec
	if ex.spec.ID != on {
		return fmt.Errorf("%v: reported by executor %s, it runs on %s: %w", id, on, ex.spec.ID, ErrStaleAttempt)
	}
	if err := ex.vacate(now, st, t); err != nil {
		return err
	}
	s.originalEnded(now, st, t, id.Task.Index, r, ex.host)
	return nil
}

// countStopped counts an attempt of st as running no more.
func (s *Scheduler) countStopped(st *stage) {
	j := st.job
	st.running--
	j.running--
	j.pool.running--
	if s.cfg.Mode == FIFO {
		s.root.running--
	}
	s.charge(j.pool, st.spec.Request, -1)
	s.rerank(st)
}

// attemptEnded moves st's task idx, t, on from an attempt that ended, its
// resources already given back.
func (s *Scheduler) attemptEnded(now time.Time, st *stage, t *task, idx int, r TaskResult, h *host) {
	j := st.job
	s.countStopped(st)
	if t.state == taskKilling {
		t.state = taskAbandoned
		j.killing--
		s.forgetIfDone(j)
		return
	}
	switch {
	case t.state == taskStopping:
		// Stopped for its gang's restart: not blamed, whatever it says
		// (and whether or not its gang still is one: a soft timeout
		// may have made it an ordinary stage since).
		s.requeue(st, t, idx)
	case r.Outcome == Succeeded:
		if st.isGang() {
			s.gangTaskSucceeded(now, st, t) // final once its whole gang is
			return
		}
		s.succeed(now, st, t, idx)
	case st.isGang():
		s.gangEnded(st, t, idx, r)
	case r.Blameless:
		s.requeue(st, t, idx)
	default:
		t.failures++
		j.failedAttempts++
		s.out.Failures = append(s.out.Failures, TaskID{st.id, idx})
		if !r.Permanent {
			s.hostFailure(now, h) // a task that could not start says nothing of its host
		}
		if r.Permanent || int(t.failures) >= st.maxFailures {
			// This attempt has ended: endJob must not count it as running
			// (it would kill it through its vacated executor, and wait
			// forever for its report).
			t.state = taskAbandoned
			s.endJob(j, failureReason(st, t, idx, r))
			return
		}
		s.backOff(now, st, t, idx)
	}
}

// failureReason says why st's task idx, t, failed its job with r.
func failureReason(st *stage, t *task, idx int, r TaskResult) string {
	if r.Permanent {
		return fmt.Sprintf("task %d of stage %q failed, and would on every attempt (not retried): %s", idx, st.spec.Name, r.Reason)
	}
	return fmt.Sprintf("task %d of stage %q failed %s; last failure: %s", idx, st.spec.Name, times(int(t.failures)), r.Reason)
}

// succeed counts st's task idx, t, as succeeded: its stage succeeds with
// its last task.
func (s *Scheduler) succeed(now time.Time, st *stage, t *task, idx int) {
	t.state = taskSucceeded
	st.countSucceeded(idx)
	st.succeeded++
	if st.succeeded == st.spec.Tasks {
		s.stageSucceeded(now, st)
	}
}

func (s *Scheduler) requeue(st *stage, t *task, idx int) {
	t.state = taskPending
	if st.queued() == 0 {
		s.classQueued(st.class) // a retry is queued only while st is runnable
	}
	// Slide the queue down once half of it is spent, so a queue that never
	// drains does not grow without bound either.
	if st.retryHead > 0 && 2*st.retryHead >= len(st.retries) {
		n := copy(st.retries, st.retries[st.retryHead:])
		st.retries, st.retryHead = st.retries[:n], 0
	}
	if st.loc != nil {
		// Placement takes it out of the queue by its place (unretry).
		t.slot = int32(len(st.retries))
		st.loc.requeue(int32(idx))
	}
	st.retries = append(st.retries, int32(idx))
}

// stageSucceeded releases the stages waiting on st, and ends the job when
// it was the last.
func (s *Scheduler) stageSucceeded(now time.Time, st *stage) {
	s.dropRunnable(st)
	s.out.StagesSucceeded = append(s.out.StagesSucceeded, st.id)
	j := st.job
	j.done++
	if j.done == len(j.stages) {
		s.out.Finished = append(s.out.Finished, JobResult{Job: j.id, Name: j.name, Succeeded: true})
		// Kept, ended, until the losing attempts of speculated tasks
		// report: they hold their executors' resources till then.
		j.ended = true
		s.forgetIfDone(j)
		return
	}
	for _, c := range st.children {
		ready := true
		for _, p := range c.parents {
			ready = ready && p.succeeded == p.spec.Tasks
		}
		if ready {
			s.makeRunnable(now, c)
		}
	}
}

// endJob fails job j for reason: its pending tasks are dropped, its running
// attempts killed (they report as usual), and the caller told.
func (s *Scheduler) endJob(j *job, reason string) {
	if j.ended {
		return
	}
	j.ended = true
	backingOff := false
	for _, st := range j.stages {
		if st.runnable {
			s.dropRunnable(st)
		}
		// Tasks never launched are dropped with the queue.
		st.freshEnd, st.retries, st.retryHead = st.launched, nil, 0
		backingOff = backingOff || st.backingOff > 0
		st.backingOff = 0
		for c := range st.chunks {
			if s.killChunk(j, st, c, reason) == 0 {
				st.chunks[c].tasks = nil // nothing of it will report
			}
		}
		if st.specul != nil {
			s.killCopies(st, reason)
		}
	}
	if backingOff {
		s.backoffs.dropJob(j)
	}
	s.out.Finished = append(s.out.Finished, JobResult{Job: j.id, Name: j.name, Reason: reason})
	s.forgetIfDone(j)
}

// killChunk has the running attempts of st's chunk c killed, for job j's
// end, and returns how many there are.
func (s *Scheduler) killChunk(j *job, st *stage, c int, reason string) int {
	killing := 0
	tasks := st.chunks[c].tasks
	for i := range tasks {
		t := &tasks[i]
		switch t.state {
		case taskPending:
			t.state = taskAbandoned
		case taskStopping:
			t.state = taskKilling // its kill is out already
			killing++
		case taskRunning:
			t.state = taskKilling
			killing++
			if t.exec.removed {
				// Its executor is being removed (RemoveExecutor ends
				// this attempt next): there is nothing to kill.
				continue
			}
			s.out.Kills = append(s.out.Kills, Kill{
				Attempt:  AttemptID{TaskID{st.id, c*chunkTasks + i}, st.ownAttempt(t, c*chunkTasks+i)},
				Executor: t.exec.spec.ID,
				Reason:   reason,
			})
		}
	}
	j.killing += killing
	return killing
}

// CancelJob ends a job that has not finished, killing its running tasks.
func (s *Scheduler) CancelJob(id JobID, reason string) error {
	j, ok := s.jobs[id]
	if !ok || j.ended {
		return fmt.Errorf("job %d is not running", id)
	}
	s.endJob(j, "cancelled: "+reason)
	return nil
}

// forgetIfDone drops an ended job once its last killed attempt reported.
func (s *Scheduler) forgetIfDone(j *job) {
	if j.ended && j.killing == 0 {
		s.forget(j)
	}
}

func (s *Scheduler) forget(j *job) {
	delete(s.jobs, j.id)
	for _, st := range j.stages {
		delete(s.stages, st.id)
	}
	p := j.pool
	if p.jobs--; p.jobs == 0 && !p.defined && p.cfg.Name != DefaultPool {
		s.removePool(p)
	}
}

// times says how often something happened: "once", "2 times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
