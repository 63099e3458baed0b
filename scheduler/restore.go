package scheduler

import (
	"fmt"
	"math"
	"time"
)

// When the ApplicationMaster's first attempt dies, YARN keeps its
// containers and starts a second. The second replays its journal (the
// jobs submitted, the tasks that succeeded) and adopts the executors still
// running, which report the attempts they run. Restoring brings the
// scheduler to the state the first attempt had before anything is placed:
// a task that succeeded does not run again, an attempt still running holds
// its cores and addresses where it runs, and every other task is pending.
//
// Tasks launch in index order, a stage keeping only its next fresh index,
// so a task restored ahead of that index takes the fresh indices it skips
// into the retry queue: they stay pending, and placement is unchanged.

// RestoreSucceeded records that task id succeeded in an earlier attempt of
// the application: it will not run again. Its stage and job count it as
// if it had run here, so the stage's children become runnable once the
// stage is done, and the next Ready reports the job Finished once every
// task has succeeded. It is refused, with nothing changed, for a task this
// scheduler does not know or could not have run yet (its job ended, its
// stage waits for parents) and for one already succeeded, running, or
// launched since the restart.
func (s *Scheduler) RestoreSucceeded(now time.Time, id TaskID) error {
	st, err := s.restorable(id)
	if err != nil {
		return fmt.Errorf("restoring stage %d task %d as succeeded: %w", id.Stage, id.Index, err)
	}
	t := s.unqueue(st, id.Index)
	s.succeed(now, st, t, id.Index)
	return nil
}

// RestoreFailures counts n failures against task id that its attempts
// in earlier attempts of the application had (Ready's Failures, as the
// caller recorded them): they count towards its stage's maxAttempts as
// if they had happened here, and a task whose failures reach it fails
// its job, as its last failure would have. A gang stage's failures are
// its own, whichever task had them (gang.go). It is refused, with
// nothing changed, for what RestoreSucceeded refuses and for n below 1.
func (s *Scheduler) RestoreFailures(id TaskID, n int) error {
	st, err := s.restorable(id)
	switch {
	case err != nil:
		return fmt.Errorf("restoring %d failures of stage %d task %d: %w", n, id.Stage, id.Index, err)
	case n < 1:
		return fmt.Errorf("restoring %d failures of stage %d task %d: want 1 or more", n, id.Stage, id.Index)
	}
	j := st.job
	j.failedAttempts += n
	if st.isGang() {
		st.gangFailures += n
		if st.gangFailures >= st.maxFailures {
			s.endJob(j, fmt.Sprintf("gang stage %q failed %s, in earlier attempts of the ApplicationMaster", st.spec.Name, times(st.gangFailures)))
		}
		return nil
	}
	t := s.unqueue(st, id.Index)
	t.failures = uint8(min(int(t.failures)+n, MaxAttemptsLimit))
	if int(t.failures) >= st.maxFailures {
		t.state = taskAbandoned
		s.endJob(j, fmt.Sprintf("task %d of stage %q failed %s, in earlier attempts of the ApplicationMaster", id.Index, st.spec.Name, times(int(t.failures))))
		return nil
	}
	s.requeue(st, t, id.Index)
	return nil
}

// Adopt records that attempt id runs on executor ex, holding the GPU
// addresses addrs, as an earlier attempt of the application launched it.
// It holds its cores and exactly those addresses (a share of one, for a
// fractional request) until its TaskFinished, or ex's removal, which end
// it as they would an attempt placed here. The task's next attempt, if it
// needs one, is numbered id.Attempt+1, or from NumberAttemptsFrom's
// first if that is higher; the failures of its earlier ones count as
// far as RestoreFailures says. It is refused, with nothing changed, for
// what RestoreSucceeded refuses, a negative attempt number or one past
// what a task's attempts are numbered to, an executor that is not
// registered, disabled or of another profile than the stage's, one
// without the free cores, and addresses that are not the executor's,
// not free enough, or not as many as the stage asks.
func (s *Scheduler) Adopt(now time.Time, ex ExecutorID, id AttemptID, addrs []string) error {
	return s.AdoptHolding(now, ex, id, addrs, nil)
}

// AdoptHolding is Adopt for an attempt that holds accelerators besides
// its GPUs: exactly accels, which must be what its stage asks for.
func (s *Scheduler) AdoptHolding(now time.Time, ex ExecutorID, id AttemptID, addrs []string, accels []Assigned) error {
	if err := s.adopt(ex, id, addrs, accels); err != nil {
		return fmt.Errorf("adopting %v on executor %s: %w", id, ex, err)
	}
	return nil
}

func (s *Scheduler) adopt(exID ExecutorID, id AttemptID, addrs []string, accels []Assigned) error {
	if id.Attempt < 0 || id.Attempt >= math.MaxInt32-1 {
		return fmt.Errorf("attempt number %d: want 0 to %d", id.Attempt, math.MaxInt32-2)
	}
	st, err := s.restorable(id.Task)
	if err != nil {
		return err
	}
	ex, err := s.adopter(exID, st)
	if err != nil {
		return err
	}
	heldAccels, err := ex.accels.take(accels, st.spec.Request.Accels)
	if err != nil {
		return err
	}
	held, err := ex.gpus.take(addrs, st.spec.Request.GPU)
	if err != nil {
		ex.accels.release(heldAccels, st.spec.Request.Accels) // undo: just taken
		return err
	}
	idx := id.Task.Index
	t := s.unqueue(st, idx)
	ex.occupy(st, t, idx, held, heldAccels)
	t.state = taskRunning
	t.attempts = int32(id.Attempt + 1)
	// Counted as a launch is, which it is not: the caller has nothing
	// to start.
	s.countStarted(st)
	return nil
}

// restorable returns the stage of task id if an earlier attempt of the
// application could have run the task and this one has not: the task is
// pending, never launched here, in a runnable stage of a job not ended.
func (s *Scheduler) restorable(id TaskID) (*stage, error) {
	st := s.stages[id.Stage]
	switch {
	case st == nil:
		return nil, fmt.Errorf("no such stage: not submitted, or its job is over")
	case id.Index < 0 || id.Index >= st.spec.Tasks:
		return nil, fmt.Errorf("index %d out of range: stage %q has %d tasks", id.Index, st.spec.Name, st.spec.Tasks)
	case st.job.ended:
		return nil, fmt.Errorf("job %d has ended", st.job.id)
	}
	t := st.task(id.Index)
	switch {
	case t == nil && id.Index < st.launched, t != nil && t.state == taskSucceeded:
		// A dropped chunk's tasks all succeeded: the job has not ended.
		return nil, fmt.Errorf("task already succeeded")
	case t != nil && t.state == taskProvisional:
		return nil, fmt.Errorf("task already succeeded since the restart, its gang not yet")
	case t != nil && t.state != taskPending:
		return nil, fmt.Errorf("task already running: attempt %d on executor %s", t.attempts-1, t.exec.spec.ID)
	case t != nil && t.attempts > 0:
		return nil, fmt.Errorf("task already launched since the restart (attempt %d): restore before placing", t.attempts-1)
	case !st.runnable:
		return nil, fmt.Errorf("stage %q is not runnable yet: it waits for stage %s", st.spec.Name, st.waitingFor())
	}
	return st, nil
}

// adopter returns executor id if it can hold a running task of st.
func (s *Scheduler) adopter(id ExecutorID, st *stage) (*executor, error) {
	ex, ok := s.executors[id]
	switch {
	case !ok:
		return nil, fmt.Errorf("executor %s is not registered", id)
	case ex.disabled:
		return nil, fmt.Errorf("executor %s is disabled: it takes no tasks", id)
	case ex.profile != st.profile:
		return nil, fmt.Errorf("executor %s is of profile %d, stage %q runs on profile %d", id, ex.spec.Profile, st.spec.Name, st.spec.Profile)
	case ex.freeCores < st.spec.Request.CPUs:
		return nil, fmt.Errorf("executor %s has %d cores free, the task holds %d", id, ex.freeCores, st.spec.Request.CPUs)
	}
	return ex, nil
}

// unqueue takes st's task idx, pending and never launched, off its queue
// (the fresh range, or the retry queue for one an earlier restore skipped)
// and returns its state.
func (s *Scheduler) unqueue(st *stage, idx int) *task {
	st.takeQueued(idx)
	if st.queued() == 0 {
		s.classDrained(st.class)
	}
	if st.loc != nil {
		st.loc.dequeue(idx)
	}
	return st.at(int32(idx))
}

// takeQueued takes st's queued task idx off its queue, wherever in it:
// the fresh range, or the retry queue.
func (st *stage) takeQueued(idx int) {
	if idx >= st.launched {
		st.skipTo(idx)
	} else {
		st.unretry(idx)
	}
}

// skipTo launches the fresh indices up to idx, as placement would, but
// queues those below idx as retries: they have not run. Each skipped
// task's slot, unused until it runs, keeps its place in the queue.
func (st *stage) skipTo(idx int) {
	for c := len(st.chunks); c <= idx/chunkTasks; c++ {
		st.addChunk(c * chunkTasks)
	}
	for k := st.launched; k < idx; k++ {
		st.at(int32(k)).slot = int32(len(st.retries))
		st.retries = append(st.retries, int32(k))
	}
	st.launched = idx + 1
}

// unretry takes task idx, which skipTo queued, out of the retry queue in
// O(1), moving the last one into its place: a journal restores tasks in
// the order they ended, and a search would make that quadratic in the
// tasks skipped.
func (st *stage) unretry(idx int) {
	// A place before the queue's head cannot hold idx: the tasks there
	// have run, and are not restorable.
	i := int(st.at(int32(idx)).slot)
	if i < st.retryHead || i >= len(st.retries) || int(st.retries[i]) != idx {
		i = st.reslot(idx)
	}
	last := len(st.retries) - 1
	moved := st.retries[last]
	st.retries[i] = moved
	st.at(moved).slot = int32(i)
	st.retries = st.retries[:last]
	if st.retryHead == last {
		st.retries, st.retryHead = st.retries[:0], 0 // drained: as popPending
	}
}

// reslot records every queued task's place in the retry queue, after
// placement or a requeue moved them, and returns task idx's.
func (st *stage) reslot(idx int) int {
	at := -1
	for i := st.retryHead; i < len(st.retries); i++ {
		st.at(st.retries[i]).slot = int32(i)
		if int(st.retries[i]) == idx {
			at = i
		}
	}
	return at
}
