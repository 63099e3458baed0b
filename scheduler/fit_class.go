package scheduler

import "time"

// Within one placement round free resources only shrink (placing takes,
// nothing gives back), so when one stage finds no executor for its next
// task, no stage asking the same of the same profile can find one either
// until the round ends. Stages are grouped by that ask into fit classes: a
// failure blocks the whole class, and a round whose every class with
// queued tasks is blocked ends at once, instead of trying a backlog of
// thousands of stages one by one for every task that ends.

// fitKey is what decides which executors can take a stage's next task
// (when it is not waiting for locality).
type fitKey struct {
	profile ProfileID
	req     TaskRequest
	// gang is a gang stage's id + 1 (0 for any other): a gang places all
	// or nothing, so it fits or fails alone.
	gang StageID
}

// fitKey is st's class's key.
func (st *stage) fitKey() fitKey {
	key := fitKey{profile: st.spec.Profile, req: st.spec.Request}
	if st.isGang() {
		key.gang = st.id + 1
	}
	return key
}

// fitClass counts the runnable stages of one fitKey.
type fitClass struct {
	key          fitKey
	members      int    // runnable stages
	queued       int    // runnable stages with queued tasks
	blockedRound uint64 // the placement round none of them could place in
}

// joinClass files st, which has just become runnable, under its class.
func (s *Scheduler) joinClass(st *stage) {
	key := st.fitKey()
	c := s.classes[key]
	if c == nil {
		c = &fitClass{key: key}
		s.classes[key] = c
	}
	c.members++
	st.class = c
	if st.queued() > 0 {
		s.classQueued(c)
	}
}

// leaveClass takes st, no longer runnable, out of its class; a class left
// empty is forgotten, so there are never more classes than runnable
// stages.
func (s *Scheduler) leaveClass(st *stage) {
	c := st.class
	if st.queued() > 0 {
		s.classDrained(c)
	}
	if c.members--; c.members == 0 {
		delete(s.classes, c.key)
	}
	st.class = nil
}

// classQueued notes that one more of c's stages has tasks queued.
func (s *Scheduler) classQueued(c *fitClass) {
	if c.queued++; c.queued == 1 {
		s.liveClasses++
	}
}

// classDrained notes that one of c's stages has no task queued any more.
// blockedClasses needs no change: a class blocked this round is not
// drained during it (none of its stages can place), and the count starts
// again with each round.
func (s *Scheduler) classDrained(c *fitClass) {
	if c.queued--; c.queued == 0 {
		s.liveClasses--
	}
}

// blockAfterFailure records that st found no executor in this round: the
// whole class unless st was waiting for locality (then it looked at only
// some executors).
func (s *Scheduler) blockAfterFailure(now time.Time, st *stage) {
	st.blockedRound = s.round
	if c := st.class; !st.waitingForLocality(now) && c.blockedRound != s.round {
		c.blockedRound = s.round
		s.blockedClasses++
	}
}

// nothingPlaceable reports whether every class with queued tasks is
// blocked this round.
func (s *Scheduler) nothingPlaceable() bool { return s.blockedClasses == s.liveClasses }
