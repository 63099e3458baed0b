package scheduler

import (
	"slices"
	"time"
)

// speculate finds the stragglers of the speculating stages that are due
// a check, and launches what copies fit after placement.
func (s *Scheduler) speculate(now time.Time) {
	for _, st := range s.speculating {
		sp := st.specul
		if sp.armed && !now.Before(sp.due) {
			s.findStragglers(now, st)
		}
		if len(sp.queue) > 0 && !s.heldFrom(st) {
			s.launchCopies(now, st)
		}
	}
}

// findStragglers queues a copy of each of st's running tasks that is a
// straggler at now (run longer than the threshold), in index order, and
// arms the next check for the first of the others to become one.
func (s *Scheduler) findStragglers(now time.Time, st *stage) {
	sp := st.specul
	sp.armed = false
	d, ok := s.threshold(st)
	if !ok {
		return
	}
	found := len(sp.queue)
	for idx, run := range sp.started {
		if sp.copies[idx] != nil {
			continue
		}
		if now.Sub(run.at) > d {
			sp.queue = append(sp.queue, idx)
			continue
		}
		sp.arm(run.at.Add(d + 1))
	}
	slices.Sort(sp.queue[found:])
	for _, idx := range sp.queue[found:] {
		sp.copies[idx] = &taskCopy{}
	}
}

// launchCopies launches the queued copies of st's stragglers, each on an
// executor other than the one running the task, while any fits.
func (s *Scheduler) launchCopies(now time.Time, st *stage) {
	sp := st.specul
	waiting := sp.queue[:0]
	for i, idx := range sp.queue {
		c := sp.copies[idx]
		t := st.at(idx)
		if c == nil || c.exec != nil {
			continue // its task ended, or its copy runs
		}
		if t.state != taskRunning {
			delete(sp.copies, idx)
			continue
		}
		ex := s.copyExecutor(now, st, t.exec)
		if ex == nil {
			waiting = append(waiting, sp.queue[i:]...)
			break
		}
		addrs, _ := ex.gpus.acquire(st.spec.Request.GPU) // copyExecutor checked it fits
		accels, _ := ex.accels.acquire(st.spec.Request.Accels)
		c.exec, c.slot = ex, ex.hold(st, int(idx), addrs, accels)
		ex.running[c.slot].copy = true
		c.orig, c.attempt, c.start = sp.started[idx].attempt, t.attempts, now
		t.attempts++
		s.countStarted(st)
		s.out.Launches = append(s.out.Launches, Launch{
			Attempt:     AttemptID{TaskID{st.id, int(idx)}, int(c.attempt)},
			Job:         st.job.id,
			Executor:    ex.spec.ID,
			Host:        ex.spec.Host,
			Request:     st.spec.Request,
			Addresses:   addrs,
			Accels:      accels,
			Speculative: true,
		})
		if st.loc != nil {
			s.out.Launches[len(s.out.Launches)-1].Locality = st.loc.on(int(idx), ex)
		}
	}
	sp.queue = waiting
}

// copyExecutor is the first executor of st's profile, by id, other than
// busy that can run a task of st now.
func (s *Scheduler) copyExecutor(now time.Time, st *stage, busy *executor) *executor {
	prof := st.profile
	req := st.spec.Request
	for i := prof.nextFree(0); i >= 0; i = prof.nextFree(i + 1) {
		ex := prof.executors[i]
		if ex != busy && ex.freeCores >= req.CPUs && !ex.host.excluded(now) && ex.gpus.fits(req.GPU) && ex.accels.fits(req.Accels) {
			return ex
		}
	}
	return nil
}

// speculative counts st's copies waiting for an executor: demand, as
// Spark's dynamic allocation counts them.
func (st *stage) speculative() int {
	if st.specul == nil {
		return 0
	}
	n := 0
	for _, idx := range st.specul.queue {
		if c := st.specul.copies[idx]; c != nil && c.exec == nil {
			n++
		}
	}
	return n
}

// ownRunning counts st's tasks running, each once: its running attempts
// but for copies and losing attempts.
func (st *stage) ownRunning() int {
	n := st.running
	if st.specul != nil {
		for _, c := range st.specul.copies {
			if c.exec != nil {
				n--
			}
		}
	}
	return n
}

// addSpeculating and dropSpeculating keep s.speculating, the runnable
// speculating stages, in (job, stage) order.
func (s *Scheduler) addSpeculating(st *stage) {
	i, _ := slices.BinarySearchFunc(s.speculating, st, stageOrder)
	s.speculating = slices.Insert(s.speculating, i, st)
}

func (s *Scheduler) dropSpeculating(st *stage) {
	if i, ok := slices.BinarySearchFunc(s.speculating, st, stageOrder); ok {
		s.speculating = slices.Delete(s.speculating, i, i+1)
	}
}
