package dynalloc

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Executor is a registered executor as dynamic allocation sees it.
type Executor struct {
	ID      scheduler.ExecutorID
	Running int       // tasks running on it
	Idle    time.Time // since when it has run nothing; ignored while Running > 0
}

// Profile is one tick's view of a resource profile.
type Profile struct {
	ID     scheduler.ProfileID
	Demand []scheduler.StageDemand // from Scheduler.Demand
	// SpeculativePending counts speculative copies waiting to run,
	// besides those Demand's stages count (StageDemand.Speculative).
	SpeculativePending int
	Executors          []Executor
	// OnDemand profiles (a coarse-mode stage's own shape) hold executors
	// only for their stages' tasks: their target starts at zero and
	// minExecutors does not hold any of their executors back.
	OnDemand bool
}

// Decision is what a profile should have: Total executors held (running
// and requested), and these idle executors stopped.
type Decision struct {
	Profile scheduler.ProfileID
	Total   int
	Release []scheduler.ExecutorID
}

// Manager keeps the allocation state of every profile across ticks.
type Manager struct {
	cfg      Config
	profiles map[scheduler.ProfileID]*state
}

type state struct {
	target       int
	toAdd        int       // Spark: executors to add next round, doubling
	addTime      time.Time // when the next add is due; zero while no backlog
	initializing bool      // until demand appears or an executor idles out
	lowSince     time.Time // Spindle: since when fewer were needed than targeted
	floor        int       // minExecutors; 0 for an OnDemand profile
	released     map[scheduler.ExecutorID]bool
}

// New checks cfg and returns a manager.
func New(cfg Config) (*Manager, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Manager{cfg: cfg, profiles: map[scheduler.ProfileID]*state{}}, nil
}

// Target is the current target of profile p (its initial one before any
// Update).
func (m *Manager) Target(p scheduler.ProfileID) int {
	if st := m.profiles[p]; st != nil {
		return st.target
	}
	return m.cfg.initialTarget()
}

// Update moves every profile's target on to now and picks the idle
// executors to release. Profiles are decided in id order.
func (m *Manager) Update(now time.Time, profiles []Profile) []Decision {
	ps := slices.Clone(profiles)
	slices.SortFunc(ps, func(a, b Profile) int { return int(a.ID - b.ID) })
	out := make([]Decision, 0, len(ps))
	for _, p := range ps {
		out = append(out, m.update(now, p))
	}
	return out
}

func (m *Manager) update(now time.Time, p Profile) Decision {
	st := m.profiles[p.ID]
	if st == nil {
		st = &state{target: m.cfg.initialTarget(), toAdd: 1, initializing: true, released: map[scheduler.ExecutorID]bool{}}
		if p.OnDemand {
			st.target, st.initializing, st.floor = 0, false, 0
		} else {
			st.floor = m.cfg.MinExecutors
		}
		m.profiles[p.ID] = st
	}
	// Executors released earlier and gone since need no more tracking;
	// those still here are on their way out and count for nothing.
	var live []Executor
	present := map[scheduler.ExecutorID]bool{}
	for _, e := range p.Executors {
		present[e.ID] = true
		if !st.released[e.ID] {
			live = append(live, e)
		}
	}
	for id := range st.released {
		if !present[id] {
			delete(st.released, id)
		}
	}

	running, pending := 0, 0
	for _, d := range p.Demand {
		running += d.Running
		pending += d.Pending + d.Speculative // Spark's pending tasks count copies
	}
	// Spark's listener: a backlog starts the add timer, an empty queue
	// clears it and resets the ramp.
	if pending > 0 {
		if st.addTime.IsZero() {
			st.addTime = now.Add(m.cfg.BacklogTimeout)
		}
	} else {
		st.addTime, st.toAdd = time.Time{}, 1
	}
	timedOut := m.timedOut(now, live)
	if running+pending > 0 || len(timedOut) > 0 {
		st.initializing = false
	}
	if !st.initializing {
		needed := m.maxNeeded(p, len(live))
		if m.cfg.Policy == PolicySpark {
			m.sparkStep(now, st, needed, len(live))
		} else {
			m.spindleStep(now, st, needed)
		}
	}
	release := m.release(now, st, live, timedOut)
	for _, id := range release {
		st.released[id] = true
	}
	return Decision{Profile: p.ID, Total: st.target, Release: release}
}

// maxNeeded is Spark's maxNumExecutorsNeededPerResourceProfile:
// ceil((running + pending, speculative copies included) × ratio ÷
// tasksPerExecutor), one more when
// speculative copies wait and a single executor would do, and room for
// task sets that only excluded hosts could run. Stages of one profile may
// fit differently many tasks per executor: their needs are summed.
func (m *Manager) maxNeeded(p Profile, executors int) int {
	ratio := m.cfg.AllocationRatio
	var need float64
	tpe, same := 0, true
	tasks, unschedulable := 0, 0
	speculative := p.SpeculativePending
	for _, d := range p.Demand {
		t := max(d.TasksPerExecutor, 1)
		if tpe != 0 && t != tpe {
			same = false
		}
		tpe = t
		tasks += d.Running + d.Pending + d.Speculative
		need += float64(d.Running+d.Pending+d.Speculative) * ratio / float64(t)
		speculative += d.Speculative
		if d.ExcludedOnly {
			unschedulable++
		}
	}
	var needed int
	if same {
		// Spark's formula to the bit, for the single tasks-per-executor case.
		needed = int(math.Ceil(float64(tasks) * ratio / float64(max(tpe, 1))))
	} else {
		needed = int(math.Ceil(need - 1e-9))
	}
	if tpe > 1 && needed == 1 && speculative > 0 {
		needed++
	}
	if unschedulable > 0 {
		extra := int(math.Ceil(float64(unschedulable) * ratio / float64(max(tpe, 1))))
		needed = max(needed, executors+extra)
	}
	return needed
}

// sparkStep is Spark's updateAndSyncNumExecutorsTarget for one profile.
func (m *Manager) sparkStep(now time.Time, st *state, needed, executors int) {
	if needed < st.target {
		// Cancel what is not needed; idle executors go by the idle timeout.
		st.target = max(needed, st.floor)
		st.toAdd = 1
		return
	}
	if st.addTime.IsZero() || now.Before(st.addTime) {
		return
	}
	old := st.target
	if old >= m.cfg.MaxExecutors {
		st.toAdd = 1
		return
	}
	target := max(st.target, executors) + st.toAdd
	target = min(target, needed)
	target = max(min(target, m.cfg.MaxExecutors), st.floor)
	st.target = target
	delta := target - old
	if delta == 0 {
		st.toAdd = 1
		return
	}
	if delta > 0 {
		if delta == st.toAdd {
			st.toAdd *= 2
		} else {
			st.toAdd = 1
		}
		st.addTime = now.Add(m.cfg.SustainedBacklogTimeout)
	}
}

// spindleStep asks for everything needed as soon as the backlog has
// lasted BacklogTimeout — GPU containers are slow to come, and a doubling
// ramp pays that delay several times — and, while the backlog lasts,
// raises again at most every SustainedBacklogTimeout, as Spark adds; it
// lowers the target only once fewer executors have been needed for
// RampDownDelay, so a dip between stages does not cancel requests the
// next stage wants back.
func (m *Manager) spindleStep(now time.Time, st *state, needed int) {
	want := max(min(needed, m.cfg.MaxExecutors), st.floor)
	switch {
	case want < st.target:
		if st.lowSince.IsZero() {
			st.lowSince = now
		}
		if now.Sub(st.lowSince) >= m.cfg.RampDownDelay {
			st.target, st.lowSince = want, time.Time{}
		}
	case want > st.target:
		st.lowSince = time.Time{}
		if !st.addTime.IsZero() && !now.Before(st.addTime) {
			st.target = want
			st.addTime = now.Add(m.cfg.SustainedBacklogTimeout)
		}
	default:
		st.lowSince = time.Time{}
	}
}

// timedOut lists the executors idle past their timeout, oldest idle first
// (ties by id): under Spark's policy the idle timeout; under Spindle's the
// idle or the surplus timeout, whichever is shorter, the warm pool being
// decided in release.
func (m *Manager) timedOut(now time.Time, execs []Executor) []Executor {
	timeout := m.cfg.IdleTimeout
	if m.cfg.Policy == PolicySpindle {
		timeout = min(m.cfg.IdleTimeout, m.cfg.SurplusIdleTimeout, m.cfg.WarmPoolIdleTimeout)
	}
	var out []Executor
	for _, e := range execs {
		if e.Running == 0 && now.Sub(e.Idle) >= timeout {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Executor) int {
		if c := a.Idle.Compare(b.Idle); c != 0 {
			return c
		}
		return strings.Compare(string(a.ID), string(b.ID))
	})
	return out
}

// release picks, from the timed-out executors, those that may go: never
// below minExecutors nor below the target (Spark's removeExecutors). Under
// Spindle's policy the WarmPoolSize most recently used of them stay until
// WarmPoolIdleTimeout, so the next burst finds executors waiting.
func (m *Manager) release(now time.Time, st *state, live, timedOut []Executor) []scheduler.ExecutorID {
	if len(timedOut) == 0 {
		return nil
	}
	candidates := timedOut
	if m.cfg.Policy == PolicySpindle {
		// Keep the warm pool: the most recently idle executors, unless even
		// they have waited WarmPoolIdleTimeout.
		keep := m.cfg.WarmPoolSize
		candidates = nil
		for i := len(timedOut) - 1; i >= 0; i-- {
			e := timedOut[i]
			if keep > 0 && now.Sub(e.Idle) < m.cfg.WarmPoolIdleTimeout {
				keep--
				continue
			}
			candidates = append(candidates, e)
		}
		slices.Reverse(candidates)
	}
	var out []scheduler.ExecutorID
	total := len(live)
	for _, e := range candidates {
		if total-1 < st.floor || total-1 < st.target {
			continue
		}
		out = append(out, e.ID)
		total--
	}
	return out
}
