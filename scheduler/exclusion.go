package scheduler

import "time"

// hostFailure counts a task failure against h, excluding it once
// MaxFailuresPerHost failures fall within the Timeout window.
func (s *Scheduler) hostFailure(now time.Time, h *host) {
	ex := s.cfg.Exclusion
	if !ex.Enabled || h == nil {
		return
	}
	kept := h.failures[:0]
	for _, t := range h.failures {
		if now.Sub(t) < ex.Timeout {
			kept = append(kept, t)
		}
	}
	h.failures = append(kept, now)
	if len(h.failures) >= ex.MaxFailuresPerHost {
		h.excludedUntil = now.Add(ex.Timeout)
		h.failures = nil
		s.excluded++
		if s.nextExpiry.IsZero() || h.excludedUntil.Before(s.nextExpiry) {
			s.nextExpiry = h.excludedUntil
		}
	}
}

// expireExclusions lets hosts whose exclusion ran out take tasks again.
func (s *Scheduler) expireExclusions(now time.Time) {
	if s.excluded == 0 || now.Before(s.nextExpiry) {
		return
	}
	s.excluded, s.nextExpiry = 0, time.Time{}
	for _, h := range s.hosts {
		if h.excluded(now) {
			s.excluded++
			if s.nextExpiry.IsZero() || h.excludedUntil.Before(s.nextExpiry) {
				s.nextExpiry = h.excludedUntil
			}
		}
	}
	if s.excluded == 0 {
		// checkUnschedulable runs only while some host is excluded: clear
		// its clocks now, or a later exclusion would inherit a stale start
		// and fail a job before its full UnschedulableTimeout.
		for _, st := range s.stages {
			st.unschedulable = time.Time{}
		}
	}
}

// onlyExcluded reports whether st's profile has executors and every one is
// on an excluded host: then nothing can run st's tasks until exclusions
// expire or new executors come.
func (s *Scheduler) onlyExcluded(now time.Time, st *stage) bool {
	execs := st.profile.executors
	if len(execs) == 0 {
		return false
	}
	for _, ex := range execs {
		if !ex.host.excluded(now) {
			return false
		}
	}
	return true
}

// checkUnschedulable fails the jobs whose pending tasks could run only on
// excluded hosts for longer than UnschedulableTimeout, so no job waits
// forever on a host that will not come back.
func (s *Scheduler) checkUnschedulable(now time.Time) {
	for _, j := range s.jobsInOrder() {
		for _, st := range j.stages {
			if !st.runnable || st.pending() == 0 || !s.onlyExcluded(now, st) {
				st.unschedulable = time.Time{}
				continue
			}
			if st.unschedulable.IsZero() {
				st.unschedulable = now
			}
			if now.Sub(st.unschedulable) >= s.cfg.Exclusion.UnschedulableTimeout {
				s.endJob(j, "stage "+quote(st.spec.Name)+" cannot run anywhere: every executor of its profile is on a host excluded after repeated task failures ("+s.excludedHosts(now, st)+")")
				break
			}
		}
	}
}
