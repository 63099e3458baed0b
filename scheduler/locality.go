package scheduler

import (
	"slices"
	"time"
)

// Delay scheduling of tasks with their own preferred hosts and racks
// (StageSpec.TaskLocality), as Spark's TaskSetManager: a stage starts at
// the most local level its tasks ask for, NodeLocal, and relaxes to
// RackLocal, then Any, each after waiting its locality wait without
// launching a task at that level. A launch at a level takes the stage
// back to that level and restarts the wait (Spark's currentLocalityIndex
// and lastLocalityWaitResetTime, its "legacy" reset). A level none of
// the stage's queued tasks asks for is passed at once. Tasks that prefer
// nothing run anywhere at once, and their launches move nothing (Spark's
// NO_PREF).
//
// A stage without TaskLocality has none of this (st.loc is nil): its
// tasks are placed as before, in index order, at no cost.

// Locality is how near its preferred place a task was launched.
type Locality uint8

const (
	// LocalityUnset: the task's stage has no per-task preferences.
	LocalityUnset Locality = iota
	NodeLocal              // on a host it prefers
	NoPref                 // it prefers nothing
	RackLocal              // on a rack it prefers
	AnyLocality            // anywhere else
)

func (l Locality) String() string {
	return [...]string{"", "node-local", "no-pref", "rack-local", "any"}[l]
}

// TaskLocality is where one task would rather run: the hosts holding its
// data (an HDFS split's block locations) and their racks.
type TaskLocality struct {
	Hosts []string
	Racks []string
}

// stageLocality is a stage's delay scheduling state: Spark's pending
// task lists by host and by rack, kept as stacks from which tasks that
// left the queue are dropped lazily when met.
type stageLocality struct {
	prefs   []TaskLocality // by task index
	wait    time.Duration
	levels  []Locality // the levels it passes through, ending with Any
	current int        // index into levels
	reset   time.Time  // when the wait at levels[current] started
	queued  []bool     // by task index: in the stage's queue now
	byHost  map[string][]int32
	byRack  map[string][]int32
	noPref  []int32
	// hostQueued and rackQueued count the queued tasks with preferred
	// hosts and racks: a level with none is passed at once.
	hostQueued, rackQueued int
	// entries counts what the stacks hold, live those of queued tasks:
	// a task launched from one stack stays in its others until met, and
	// is pushed again on each retry, so the stacks are rebuilt once
	// mostly stale (requeue).
	entries, live int
}

// staleSlack is how many stale entries the stacks may hold beyond as
// many as the live ones before they are rebuilt.
const staleSlack = 1024

// newStageLocality indexes a stage's per-task preferences, its tasks
// all queued.
func newStageLocality(prefs []TaskLocality, wait time.Duration) *stageLocality {
	l := &stageLocality{prefs: prefs, wait: wait, queued: make([]bool, len(prefs)), byHost: map[string][]int32{}, byRack: map[string][]int32{}}
	// Pushed from the last task, so that each stack pops the lowest
	// index first.
	for i := len(prefs) - 1; i >= 0; i-- {
		l.enqueue(int32(i))
	}
	if l.hostQueued > 0 {
		l.levels = append(l.levels, NodeLocal)
	}
	if l.rackQueued > 0 {
		l.levels = append(l.levels, RackLocal)
	}
	l.levels = append(l.levels, AnyLocality)
	return l
}

// requeue queues task idx again (a retry), rebuilding the stacks when
// stale entries outnumber the live ones: O(1) amortized, and the stacks
// stay within twice what the queued tasks need.
func (l *stageLocality) requeue(idx int32) {
	l.enqueue(idx)
	if l.entries <= 2*l.live+staleSlack {
		return
	}
	for h, q := range l.byHost {
		l.byHost[h] = q[:0]
	}
	for r, q := range l.byRack {
		l.byRack[r] = q[:0]
	}
	l.noPref = l.noPref[:0]
	l.hostQueued, l.rackQueued, l.entries, l.live = 0, 0, 0, 0
	for i := len(l.queued) - 1; i >= 0; i-- {
		if l.queued[i] {
			l.enqueue(int32(i))
		}
	}
}

// entriesOf is how many stack entries a task with preferences p takes.
func entriesOf(p TaskLocality) int { return max(len(p.Hosts)+len(p.Racks), 1) }

// enqueue queues task idx at each place it prefers.
func (l *stageLocality) enqueue(idx int32) {
	l.queued[idx] = true
	p := l.prefs[idx]
	n := entriesOf(p)
	l.entries += n
	l.live += n
	for _, h := range p.Hosts {
		l.byHost[h] = append(l.byHost[h], idx)
	}
	for _, r := range p.Racks {
		l.byRack[r] = append(l.byRack[r], idx)
	}
	if len(p.Hosts) > 0 {
		l.hostQueued++
	}
	if len(p.Racks) > 0 {
		l.rackQueued++
	}
	if len(p.Hosts) == 0 && len(p.Racks) == 0 {
		l.noPref = append(l.noPref, idx)
	}
}

// dequeue records that task idx left the queue (launched, or restored).
func (l *stageLocality) dequeue(idx int) {
	l.queued[idx] = false
	p := l.prefs[idx]
	l.live -= entriesOf(p)
	if len(p.Hosts) > 0 {
		l.hostQueued--
	}
	if len(p.Racks) > 0 {
		l.rackQueued--
	}
}

// start begins the wait at the most local level, as the stage becomes
// runnable.
func (l *stageLocality) start(now time.Time) {
	l.current, l.reset = 0, now
}

// allowed is the least local level a task may launch at now: Spark's
// getAllowedLocalityLevel. The wait at a level ends when it has lasted
// exactly l.wait (Spark's >=).
func (l *stageLocality) allowed(now time.Time) Locality {
	for l.current < len(l.levels)-1 {
		switch {
		case !l.hasQueuedAt(l.levels[l.current]):
			l.reset = now
			l.current++
		case now.Sub(l.reset) >= l.wait:
			l.reset = l.reset.Add(l.wait)
			l.current++
		default:
			return l.levels[l.current]
		}
	}
	return l.levels[l.current]
}

func (l *stageLocality) hasQueuedAt(level Locality) bool {
	if level == NodeLocal {
		return l.hostQueued > 0
	}
	return l.rackQueued > 0
}

// deadline is when the wait at the current level ends, if it is not Any.
func (l *stageLocality) deadline() (time.Time, bool) {
	if l.current >= len(l.levels)-1 {
		return time.Time{}, false
	}
	return l.reset.Add(l.wait), true
}

// launched moves the stage to the level a task launched at, and restarts
// its wait there (Spark's resourceOffer); a task preferring nothing
// moves nothing.
func (l *stageLocality) launched(now time.Time, at Locality) {
	if at == NoPref {
		return
	}
	for i, lv := range l.levels {
		if lv == at {
			l.current, l.reset = i, now
			return
		}
	}
}

// peek is the next queued task of stack q, dropping from it those that
// left the queue; -1 when none is left.
func (l *stageLocality) peek(q []int32) ([]int32, int) {
	for len(q) > 0 {
		if idx := q[len(q)-1]; l.queued[idx] {
			return q, int(idx)
		}
		q = q[:len(q)-1]
		l.entries--
	}
	return q, -1
}

// taskFor is the queued task st would launch on ex when it may launch at
// level allowed, and the level it would run at; -1 when none.
func (l *stageLocality) taskFor(ex *executor, allowed Locality) (int, Locality) {
	if q, ok := l.byHost[ex.spec.Host]; ok {
		var idx int
		if l.byHost[ex.spec.Host], idx = l.peek(q); idx >= 0 {
			return idx, NodeLocal
		}
	}
	var idx int
	if l.noPref, idx = l.peek(l.noPref); idx >= 0 {
		return idx, NoPref
	}
	if allowed >= RackLocal && ex.spec.Rack != "" {
		if q, ok := l.byRack[ex.spec.Rack]; ok {
			if l.byRack[ex.spec.Rack], idx = l.peek(q); idx >= 0 {
				return idx, RackLocal
			}
		}
	}
	return -1, AnyLocality
}

// on is how near task idx's preferences running on ex is: for a launch
// chosen other than by taskFor (a speculative copy, which goes where
// there is room).
func (l *stageLocality) on(idx int, ex *executor) Locality {
	p := l.prefs[idx]
	switch {
	case len(p.Hosts) == 0 && len(p.Racks) == 0:
		return NoPref
	case slices.Contains(p.Hosts, ex.spec.Host):
		return NodeLocal
	case ex.spec.Rack != "" && slices.Contains(p.Racks, ex.spec.Rack):
		return RackLocal
	}
	return AnyLocality
}
