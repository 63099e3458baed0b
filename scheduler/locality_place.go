package scheduler

import (
	"fmt"
	"time"
)

// placeLocal launches one of st's queued tasks, st having TaskLocality:
// on the next executor, round robin, that can run a task at the level
// delay scheduling allows now (locality.go); false when none can.
func (s *Scheduler) placeLocal(now time.Time, st *stage) bool {
	l := st.loc
	allowed := l.allowed(now)
	prof := st.profile
	n := len(prof.executors)
	if n == 0 {
		return false
	}
	req := st.spec.Request
	start := prof.cursor % n
	for _, span := range [2][2]int{{start, n}, {0, start}} {
		for i := prof.nextFree(span[0]); i >= 0 && i < span[1]; i = prof.nextFree(i + 1) {
			ex := prof.executors[i]
			if ex.freeCores < req.CPUs || ex.host.excluded(now) || !ex.gpus.fits(req.GPU) || !ex.accels.fits(req.Accels) {
				continue
			}
			idx, at := l.taskFor(ex, allowed)
			if idx < 0 && allowed != AnyLocality {
				continue
			}
			if idx < 0 {
				idx = st.popPending() // any task will do: the next in order
			} else {
				st.takeQueued(idx)
			}
			l.dequeue(idx)
			addrs, _ := ex.gpus.acquire(req.GPU)
			accels, _ := ex.accels.acquire(req.Accels)
			s.launch(now, st, ex, idx, addrs, accels)
			l.launched(now, at)
			s.out.Launches[len(s.out.Launches)-1].Locality = at
			return true
		}
	}
	return false
}

// localityWaitEnds is when st's wait for its preferred places ends.
func (st *stage) localityWaitEnds() time.Time {
	if st.loc != nil {
		d, _ := st.loc.deadline()
		return d
	}
	return st.localityDeadline
}

// wants reports whether st, waiting for locality, would launch a task on
// ex now.
func (st *stage) wants(ex *executor) bool {
	if st.loc != nil {
		idx, _ := st.loc.taskFor(ex, st.loc.levels[st.loc.current])
		return idx >= 0
	}
	return st.preferred(ex)
}

// checkTaskLocality refuses a stage's TaskLocality that does not fit it.
func checkTaskLocality(field string, ss StageSpec) error {
	switch {
	case ss.LocalityWait != nil && *ss.LocalityWait < 0:
		return fmt.Errorf("%s: locality wait %s: want 0 or more", field, *ss.LocalityWait)
	case len(ss.TaskLocality) == 0:
		return nil
	case len(ss.TaskLocality) != ss.Tasks:
		return fmt.Errorf("%s: locality given for %d tasks, the stage has %d", field, len(ss.TaskLocality), ss.Tasks)
	case ss.Gang:
		return fmt.Errorf("%s: a gang stage launches all its tasks at once: it takes no task locality", field)
	case len(ss.PreferredHosts) > 0 || len(ss.PreferredExecutors) > 0:
		return fmt.Errorf("%s: task locality and the stage's preferred hosts or executors exclude each other", field)
	}
	return nil
}
