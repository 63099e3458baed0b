package faultsim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spindle-yarn/spindle/internal/timeline"
)

// Options are a run's knobs beyond its schedule.
type Options struct {
	// Trace records the run's history as text (Result.Trace): a failing
	// seed is run again with it to show what led to the failure.
	Trace bool
	// Continue runs on after an invariant broke, to see which others
	// break (Result.Violations).
	Continue bool
	// Horizon bounds simulated time (default 30 minutes): a run whose
	// clients are not done by then broke the liveness invariant.
	Horizon time.Duration
}

// Result is what a run came to.
type Result struct {
	// Broken is the first invariant the run broke; nil when it broke
	// none.
	Broken *Violation
	// Violations are the first violation of each invariant broken (only
	// the first, unless Options.Continue).
	Violations []*Violation
	// Attempts is how many AM attempts ran; Runs how many task runs
	// started; Jobs how many jobs ended.
	Attempts, Runs, Jobs int
	// End is the simulated time the run ended at.
	End time.Duration
	// Counts are how often each thing worth knowing happened (an AM
	// crash, an executor adopted, a journal given up on...): what the
	// schedules exercised.
	Counts map[string]int
	Trace  []string
}

// epoch is simulated time zero.
var epoch = time.Unix(0, 0).UTC()

// world is a run: the RM and its NodeManagers, the executors, the
// journal's store, the AM's attempts one after another, the session's
// clients, and the history the invariants are checked over.
type world struct {
	s     *Schedule
	opts  Options
	rng   *rand.Rand
	now   time.Time
	end   time.Time
	queue timeline.Queue[func()]

	rm         *rmSim
	store      *store
	attempts   []*attempt
	live       *attempt // nil between attempts
	clients    []*client
	h          *history
	broken     *Violation
	violations []*Violation
	trace      []string
	counts     map[string]int
	// over: a one-job application ended (its AM unregistered).
	over bool
	// sameInstant counts the events run at now, against spinLimit.
	sameInstant int
}

// spinLimit is how many events may happen at one instant: more is a
// loop that never lets time pass (a read tried again at once, forever),
// which would otherwise hang the test rather than fail a seed.
const spinLimit = 100_000

// Run runs schedule s.
func Run(s *Schedule, opts Options) Result {
	if opts.Horizon <= 0 {
		opts.Horizon = 30 * time.Minute
	}
	w := &world{s: s, opts: opts, rng: rand.New(rand.NewPCG(s.Seed, 0x3011d)), now: epoch, end: epoch.Add(opts.Horizon), counts: map[string]int{}}
	w.h = newHistory(w)
	w.store = newStore(w)
	w.rm = newRM(w)
	for i, c := range s.Clients {
		if !s.OneJob {
			w.clients = append(w.clients, newClient(w, i, c))
		}
	}
	for _, f := range s.Faults {
		w.schedule(f)
	}
	w.startAttempt()
	w.loop()
	res := Result{Broken: w.broken, Violations: w.violations, Attempts: len(w.attempts), Runs: len(w.h.runs), Jobs: w.h.jobsEnded, End: w.now.Sub(epoch), Counts: w.counts, Trace: w.trace}
	return res
}

func (w *world) loop() {
	for (w.broken == nil || w.opts.Continue) && !w.clientsDone() {
		if w.queue.Len() == 0 {
			w.h.stalled("nothing left to happen")
			return
		}
		at, do := w.queue.Pop()
		if at.After(w.end) {
			w.h.stalled(fmt.Sprintf("the clients were not done by the horizon, %v", w.opts.Horizon))
			return
		}
		if at.Equal(w.now) {
			w.sameInstant++
		} else {
			w.sameInstant = 0
		}
		if w.sameInstant > spinLimit {
			w.h.stalled(fmt.Sprintf("%d events at %v: the world spins without time passing", spinLimit, w.now.Sub(epoch)))
			return
		}
		w.now = at
		do()
		// The AM decides once per instant, after every event at it.
		if next, ok := w.queue.Next(); ok && next.Equal(w.now) {
			continue
		}
		if a := w.live; a != nil && (w.broken == nil || w.opts.Continue) {
			a.decide()
		}
	}
}

func (w *world) clientsDone() bool {
	if w.s.OneJob {
		return w.over
	}
	for _, c := range w.clients {
		if !c.done() {
			return false
		}
	}
	return true
}

// after has do run d from now.
func (w *world) after(d time.Duration, do func()) { w.at(w.now.Add(d), do) }

func (w *world) at(t time.Time, do func()) {
	if t.Before(w.now) {
		t = w.now
	}
	w.queue.Push(t, do)
}

// between is a duration from lo to hi, to the millisecond.
func (w *world) between(lo, hi time.Duration) time.Duration {
	n := int64((hi - lo) / time.Millisecond)
	return lo + time.Duration(w.rng.Int64N(n+1))*time.Millisecond
}

// latency is a message's time in flight.
func (w *world) latency() time.Duration { return w.between(time.Millisecond, 80*time.Millisecond) }

// count notes that something worth knowing happened.
func (w *world) count(what string) { w.counts[what]++ }

// logf records a line of the history, when the run is traced.
func (w *world) logf(format string, args ...any) {
	if w.opts.Trace {
		w.trace = append(w.trace, fmt.Sprintf("%10.3fs  ", w.now.Sub(epoch).Seconds())+fmt.Sprintf(format, args...))
	}
}
