package scheduler

import "time"

// A task that fails (counted) waits before it runs again, longer after
// each failure, so a task failing at once is not relaunched in a hot loop:
// it sits in the scheduler's retry heap, out of its stage's queues, until
// Ready finds its time has come and queues it as a retry.

// retryWait is one failed task waiting out its backoff.
type retryWait struct {
	at  time.Time // when it may run again
	st  *stage
	idx int32
}

// before orders waits by time, then stage and task: a total order, so
// tasks whose backoffs end together are queued the same way every run.
func (a retryWait) before(b retryWait) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	if a.st.id != b.st.id {
		return a.st.id < b.st.id
	}
	return a.idx < b.idx
}

// retryHeap is a min-heap of waits. It is typed rather than
// container/heap's, whose interface would allocate on every push.
type retryHeap []retryWait

func (h *retryHeap) push(w retryWait) {
	q := append(*h, w)
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
	*h = q
}

func (h *retryHeap) pop() retryWait {
	q := *h
	top, last := q[0], len(q)-1
	q[0] = q[last]
	q[last] = retryWait{} // the backing array must not keep the stage alive
	q = q[:last]
	q.down(0)
	*h = q
	return top
}

// down moves the wait at i down to its place.
func (q retryHeap) down(i int) {
	for {
		m, l := i, 2*i+1
		if l < len(q) && q[l].before(q[m]) {
			m = l
		}
		if r := l + 1; r < len(q) && q[r].before(q[m]) {
			m = r
		}
		if m == i {
			return
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
}

// dropJob takes job j's waits off the heap: an ended job's stages must
// not stay reachable (and their tasks with them) until their backoffs
// run out. O(n) in the waits, once per job that ends with some.
func (h *retryHeap) dropJob(j *job) {
	q := *h
	kept := q[:0]
	for _, w := range q {
		if w.st.job != j {
			kept = append(kept, w)
		}
	}
	clear(q[len(kept):])
	// Sifting each down from the last parent restores the order.
	for i := len(kept)/2 - 1; i >= 0; i-- {
		kept.down(i)
	}
	*h = kept
}

// backOff keeps st's task idx, t, which has just failed (counted) at now,
// from running again before its backoff has passed.
func (s *Scheduler) backOff(now time.Time, st *stage, t *task, idx int) {
	t.state = taskPending
	st.backingOff++
	s.backoffs.push(retryWait{at: now.Add(s.backoffDelay(int(t.failures))), st: st, idx: int32(idx)})
}

// backoffDelay is the wait after a task's n-th counted failure (n >= 1):
// min(RetryBackoff·2^(n-1), RetryMaxBackoff), without overflow.
func (s *Scheduler) backoffDelay(n int) time.Duration {
	base, ceiling := s.cfg.RetryBackoff, s.cfg.RetryMaxBackoff
	if shift := n - 1; shift < 63 && base <= ceiling>>shift {
		return base << shift
	}
	return ceiling
}

// endBackoffs queues as retries the tasks whose backoff has passed by now,
// the earliest first. (An ended job's waits are dropped as it ends.)
func (s *Scheduler) endBackoffs(now time.Time) {
	for len(s.backoffs) > 0 && !s.backoffs[0].at.After(now) {
		w := s.backoffs.pop()
		w.st.backingOff--
		s.requeue(w.st, w.st.at(w.idx), int(w.idx))
	}
}
