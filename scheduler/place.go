package scheduler

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Ready places what can be placed at now and returns every decision since
// the last call: launches, kills and finished jobs. The slices are reused by
// the next call.
func (s *Scheduler) Ready(now time.Time) Ready {
	s.expireExclusions(now)
	s.endBackoffs(now)
	s.gangTimeouts(now)
	// Before placing: a job failed for being unschedulable must not have
	// its other stages' tasks launched and killed in the same batch.
	if s.excluded > 0 {
		s.checkUnschedulable(now)
	}
	s.place(now)
	if len(s.speculating) > 0 {
		s.speculate(now)
	}
	return s.take()
}

// Held returns every decision since the last call, as Ready does, but
// places nothing, nor lets a waiting gang's try time out: for a caller
// that may start no task yet (an ApplicationMaster attempt awaiting its
// predecessor's executors), whose kills, failures and jobs that ended
// must still be carried out.
func (s *Scheduler) Held(now time.Time) Ready {
	s.expireExclusions(now)
	s.endBackoffs(now)
	return s.take()
}

// take hands out the decisions so far.
func (s *Scheduler) take() Ready {
	rd := s.out
	// Double-buffered: what events append from now on must not overwrite
	// the batch the caller is still carrying out.
	s.out = Ready{Launches: s.spare.Launches[:0], Kills: s.spare.Kills[:0], StagesSucceeded: s.spare.StagesSucceeded[:0], Finished: s.spare.Finished[:0], GangTimeouts: s.spare.GangTimeouts[:0], GangTasksDone: s.spare.GangTasksDone[:0],
		Failures: s.spare.Failures[:0]}
	s.spare = rd
	return rd
}

// place launches pending tasks, one at a time, each time on behalf of the
// stage the ordering says is next (so fair shares hold within one round),
// until no stage can place more.
// A round in which a gang launched is followed by another: the stages it
// held its profile from may place now.
func (s *Scheduler) place(now time.Time) {
	for s.placeRound(now) {
	}
}

// placeRound is one round of placement; true when a gang launched in it.
func (s *Scheduler) placeRound(now time.Time) bool {
	s.round++
	s.blockedClasses = 0
	s.startAcquiring(now)
	gangs := false
	for {
		st := s.pickStage()
		if st == nil {
			s.endRound()
			return gangs
		}
		switch {
		case !st.isGang():
			if !s.placeOne(now, st) {
				s.blockAfterFailure(now, st)
			}
		case s.placeGang(now, st):
			gangs = true
		default:
			st.blockedRound = s.round // alone in its class: blocks only itself
		}
	}
}

// endRound puts back in their ranks the pools and stages the round set
// aside.
func (s *Scheduler) endRound() {
	s.fair.restore()
	for _, p := range s.setAside {
		p.stages.restore()
	}
	clear(s.setAside)
	s.setAside = s.setAside[:0]
}

// eligible reports whether st may still place a task this round.
func (s *Scheduler) eligible(st *stage) bool {
	return st.blockedRound != s.round && st.class.blockedRound != s.round && st.queued() > 0
}

// nextStage is the stage to place for next: under FIFO the first eligible
// stage by (job, stage); under FAIR the best pool by Spark's fair ordering,
// then the best stage within it by the pool's own mode.
func (s *Scheduler) nextStage() *stage {
	if s.nothingPlaceable() {
		return nil
	}
	if s.cfg.Mode == FIFO {
		return s.firstEligible(s.root)
	}
	// The best pool with a candidate: one without stays aside this round.
	for {
		p, ok := s.fair.first()
		if !ok {
			return nil
		}
		if st := s.poolCandidate(p); st != nil {
			return st
		}
		s.fair.setAside()
	}
}

func (s *Scheduler) poolCandidate(p *pool) *stage {
	if p.cfg.Mode == FIFO {
		return s.firstEligible(p)
	}
	// FAIR within a pool: its rank's order (stage.ranksBefore).
	for {
		st, ok := p.stages.first()
		if !ok {
			return nil
		}
		if s.eligible(st) {
			return st
		}
		if len(p.stages.aside) == 0 {
			s.setAside = append(s.setAside, p)
		}
		p.stages.setAside()
	}
}

// firstEligible walks p's FIFO order from where this round left it: a
// stage that stops being eligible stays so for the round.
func (s *Scheduler) firstEligible(p *pool) *stage {
	if p.nextOf != s.round {
		p.next, p.nextOf = 0, s.round
	}
	for p.next < len(p.runnable) {
		if st := p.runnable[p.next]; s.eligible(st) {
			return st
		}
		p.next++
	}
	return nil
}

// fairLess is Spark's FairSchedulingAlgorithm: a pool below its minShare
// comes first, the needy compared by running/minShare; otherwise by
// running/weight, or under FairDRF by dominant share per weight (drf.go);
// then by name. Task ratios are compared by cross-multiplying, exactly.
func fairLess(a, b *pool) bool {
	aNeedy, bNeedy := a.running < a.cfg.MinShare, b.running < b.cfg.MinShare
	var c int
	switch {
	case aNeedy && !bNeedy:
		return true
	case !aNeedy && bNeedy:
		return false
	case aNeedy && bNeedy:
		c = a.running*max(b.cfg.MinShare, 1) - b.running*max(a.cfg.MinShare, 1)
	case a.drf:
		if a.share != b.share {
			return a.share < b.share
		}
	default:
		c = a.running*b.cfg.Weight - b.running*a.cfg.Weight
	}
	if c != 0 {
		return c < 0
	}
	return a.cfg.Name < b.cfg.Name
}

// placeOne launches st's next pending task on the next executor, round
// robin, that can run it; false when none can.
func (s *Scheduler) placeOne(now time.Time, st *stage) bool {
	if s.heldFrom(st) {
		return false
	}
	if st.loc != nil {
		return s.placeLocal(now, st)
	}
	ex := s.pickExecutor(now, st)
	if ex == nil {
		return false
	}
	addrs, _ := ex.gpus.acquire(st.spec.Request.GPU) // findExecutor checked it fits
	accels, _ := ex.accels.acquire(st.spec.Request.Accels)
	s.launch(now, st, ex, st.popPending(), addrs, accels)
	return true
}

// launch starts st's task idx, just taken off its queue, on ex with the
// GPU addresses addrs and the accelerators' accels, held for it already.
func (s *Scheduler) launch(now time.Time, st *stage, ex *executor, idx int, addrs []string, accels []Assigned) {
	if st.queued() == 0 {
		s.classDrained(st.class)
	}
	t := st.at(int32(idx))
	ex.occupy(st, t, idx, addrs, accels)
	t.state = taskRunning
	// A task's attempts go on from the last one it had, or from this
	// ApplicationMaster attempt's first number (NumberAttemptsFrom).
	attempt := max(int(t.attempts), s.firstAttempt)
	t.attempts = int32(attempt + 1)
	s.countStarted(st)
	if st.specul != nil {
		s.started(now, st, idx, attempt)
	}
	if st.preferred(ex) {
		// Delay scheduling, as Spark's: each launch where the task wanted
		// to be renews the wait for the next one.
		st.localityDeadline = now.Add(s.cfg.LocalityWait)
	}
	ex.profile.cursor = ex.slot + 1
	s.out.Launches = append(s.out.Launches, Launch{
		Attempt:   AttemptID{TaskID{st.id, idx}, attempt},
		Job:       st.job.id,
		Executor:  ex.spec.ID,
		Host:      ex.spec.Host,
		Request:   st.spec.Request,
		Addresses: addrs,
		Accels:    accels,
	})
}

// countStarted counts an attempt of st as running.
func (s *Scheduler) countStarted(st *stage) {
	st.running++
	st.job.running++
	st.job.pool.running++
	if s.cfg.Mode == FIFO {
		s.root.running++
	}
	s.charge(st.job.pool, st.spec.Request, 1)
	s.rerank(st)
}

func (st *stage) hasPreference() bool {
	return st.preferredHosts != nil || st.preferredExecs != nil || st.loc != nil
}

// waitingForLocality: st may still run only where it prefers (for
// TaskLocality, at the level its last placement allowed).
func (st *stage) waitingForLocality(now time.Time) bool {
	if st.loc != nil {
		return st.loc.levels[st.loc.current] != AnyLocality
	}
	return st.hasPreference() && now.Before(st.localityDeadline)
}

func (st *stage) preferred(ex *executor) bool {
	return st.preferredExecs[ex.spec.ID] || st.preferredHosts[ex.spec.Host]
}

// findExecutor walks st's profile's executors with a free core, round robin
// from the last placement, for one that can run st's next task now.
func (s *Scheduler) findExecutor(now time.Time, st *stage) *executor {
	prof := st.profile
	n := len(prof.executors)
	if n == 0 {
		return nil
	}
	waiting := st.waitingForLocality(now)
	req := st.spec.Request
	start := prof.cursor % n
	// Round robin: from the cursor to the end, then from the start.
	for _, span := range [2][2]int{{start, n}, {0, start}} {
		for i := prof.nextFree(span[0]); i >= 0 && i < span[1]; i = prof.nextFree(i + 1) {
			ex := prof.executors[i]
			if ex.freeCores >= req.CPUs && !ex.host.excluded(now) && (!waiting || st.preferred(ex)) && ex.gpus.fits(req.GPU) && ex.accels.fits(req.Accels) {
				return ex
			}
		}
	}
	return nil
}

// jobsInOrder lists the active jobs by id.
func (s *Scheduler) jobsInOrder() []*job {
	js := make([]*job, 0, len(s.jobs))
	for _, j := range s.jobs {
		js = append(js, j)
	}
	slices.SortFunc(js, func(a, b *job) int { return int(a.id - b.id) })
	return js
}

func (s *Scheduler) excludedHosts(now time.Time, st *stage) string {
	var names []string
	for _, ex := range st.profile.executors {
		if ex.host.excluded(now) && !slices.Contains(names, ex.spec.Host) {
			names = append(names, ex.spec.Host)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func quote(s string) string { return strconv.Quote(s) }
