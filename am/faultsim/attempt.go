package faultsim

import (
	"context"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// appID is the simulated application's.
const appID = "application_1700000000000_0001"

// attempt is an ApplicationMaster attempt: what deploy/appmaster and
// am.Driver do, on simulated time, around a fresh core and journal
// writer, with package handover deciding the restart path as it does
// for them.
type attempt struct {
	w     *world
	n     int
	start time.Time
	dead  bool
	// crashed is when its process died; zero while it runs, or when it
	// ended the application.
	crashed time.Time
	// core is nil while the attempt reads the journal.
	core     *core.Core
	writer   *journal.Writer
	takeover *handover.Takeover
	// kept are the containers the RM named at registration; known those
	// the attempt holds (granted or kept), by id, with when its core
	// took each over (kept ones) or zero.
	kept    []*container
	known   map[string]bool
	named   map[string]time.Time
	conns   map[scheduler.ExecutorID]*conn
	crashes []Fault
	ops     int // store operations so far
	// The journal writer's pace (journal.Writer.Run's, simulated).
	flushing  bool
	lastFlush time.Time
	failures  int
	wake      time.Time
	acks      []pendingAck
	followers map[scheduler.JobID][]*clientJob
	knowledge
}

// startAttempt starts the next AM attempt: it registers with the RM,
// then reads the journal.
func (w *world) startAttempt() {
	a := &attempt{w: w, n: len(w.attempts) + 1, start: w.now, known: map[string]bool{}, named: map[string]time.Time{},
		conns: map[scheduler.ExecutorID]*conn{}, followers: map[scheduler.JobID][]*clientJob{}, knowledge: newKnowledge()}
	for _, f := range w.s.Faults {
		if f.Kind == Crash && f.Op > 0 && f.Attempt == a.n {
			a.crashes = append(a.crashes, f)
		}
	}
	w.attempts = append(w.attempts, a)
	w.live = a
	a.kept = w.rm.register(a.n)
	w.logf("attempt %d starts; the RM names %d kept containers", a.n, len(a.kept))
	if !w.s.Journal {
		a.takeOver(handover.Read{Done: true, State: journal.NewState(appID), Known: true})
		return
	}
	a.read(handover.StartReading(w.now))
}

// read tries to load the journal, again after a while if the store
// fails, as deploy/appmaster's readJournal does.
func (a *attempt) read(r *handover.Reading) {
	st, err := journal.Load(context.Background(), attemptStore{a}, appID)
	if a.dead {
		return
	}
	read := r.Tried(a.w.now, appID, st, err)
	switch {
	case read.Refused:
		a.w.h.refused(a, err)
	case !read.Done:
		a.w.count("journal read tried again")
		a.w.logf("attempt %d cannot read the journal (%v): tries again in %v", a.n, err, read.Again)
		a.w.after(read.Again, func() {
			if !a.dead {
				a.read(r)
			}
		})
		return
	case read.GaveUp:
		a.w.count("journal given up on")
		a.w.logf("attempt %d gives up on the journal: its work starts over", a.n)
	}
	a.takeOver(read)
}

func (a *attempt) config() core.Config {
	return core.Config{AppID: appID, AMAttempt: a.n, Session: !a.w.s.OneJob, LossReasonWait: 10 * time.Second,
		Profiles: []scheduler.Profile{{ID: 0, Cores: 2, MemoryMB: 2048, GPUs: 2}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: a.w.s.Executors}, MaxGPUsPerNode: 2 * slotsPerNode,
			Heartbeat: time.Second, InitialAllocation: 200 * time.Millisecond, CutStopWait: handover.StopWait(a.w.s.Rejoin, stopGrace)}}
}

// takeOver makes the attempt's core and journal writer and hands them
// what the earlier attempts left (handover.Resume, or StartOver when
// that fails), as deploy/appmaster and am.Driver do.
func (a *attempt) takeOver(read handover.Read) {
	w := a.w
	c, err := core.New(a.config())
	if err != nil {
		panic(err) // the configuration is the simulator's own
	}
	st := read.State
	var entries []journal.Entry
	var resumed map[scheduler.JobID]bool
	if handover.TakesOver(a.n, st, len(a.kept)) {
		kept := a.describe(a.kept)
		t, plan, err := handover.Resume(c, w.now, st, kept, w.s.Adopt, handover.StopWait(w.s.Rejoin, stopGrace))
		if err != nil {
			w.h.refused(a, err)
			if c, err = core.New(a.config()); err != nil {
				panic(err)
			}
			t, entries, err = handover.StartOver(c, w.now, st, kept, handover.StopWait(w.s.Rejoin, stopGrace))
			if err != nil {
				panic(err)
			}
		} else {
			entries, resumed = plan.Journal, plan.Resumed
			a.dial(plan.Rejoin)
			for id := range plan.Resumed {
				w.h.jobID(a, id, mustJob(c, w.now, id).Name)
			}
		}
		a.takeover = t
	}
	a.core = c
	if read.Known && !read.GaveUp && !read.Refused {
		a.inherit(w.h)
	}
	if w.s.Journal {
		a.writer = journal.NewWriter(journal.WriterConfig{Store: attemptStore{a}, Attempt: a.n, KeepEarlier: !read.Known, Log: quiet}, st)
		a.poke()
	}
	a.journal(entries...)
	w.logf("attempt %d runs: %d jobs taken over", a.n, len(st.Jobs))
	w.after(0, func() {}) // its loop's first turn
	if w.s.OneJob && handover.SubmitsItsJob(resumed) {
		a.submitOwn()
	}
}

// submitOwn submits a one-job application's job, as am.Driver.Run does.
func (a *attempt) submitOwn() {
	w := a.w
	name := jobName(0, 0)
	id, err := a.core.Submit(w.now, jobSpec(name, w.s.Clients[0].Jobs[0]), nil)
	if err != nil {
		panic(err) // the simulator's own job
	}
	w.logf("attempt %d submits its job %s as job %d", a.n, name, id)
	w.h.jobID(a, id, name)
	if e, err := handover.Job(a.core, id, jobSpec(name, w.s.Clients[0].Jobs[0])); err == nil {
		a.journal(e)
	}
}

// describe are kept containers as YARN names them, noted as known.
func (a *attempt) describe(cts []*container) []core.KeptContainer {
	out := make([]core.KeptContainer, 0, len(cts))
	for _, c := range cts {
		a.known[c.id] = true
		a.named[c.id] = a.w.now
		out = append(out, core.KeptContainer{ID: c.id, Node: c.node.id(), NodeName: c.node.name})
	}
	return out
}

// dial reaches the kept executors to adopt, each every second until it
// answers or the adoption wait is over (am.Driver.rejoin).
func (a *attempt) dial(rejoin []handover.Rejoin) {
	deadline := a.w.now.Add(a.w.s.Adopt)
	for _, j := range rejoin {
		var try func()
		try = func() {
			if a.dead {
				return
			}
			if c := a.w.rm.containers[j.Container]; c != nil && c.x != nil && c.x.dialled(a) {
				return
			}
			if a.w.now.Before(deadline) {
				a.w.after(time.Second, try)
			}
		}
		a.w.after(a.w.latency(), try)
	}
}

// crash kills the attempt's process: its connections end (the
// executors hear of it after what was in flight to them), its clients
// lose it, and YARN starts the next attempt a few seconds later.
func (a *attempt) crash(why string) {
	if a.dead {
		return
	}
	a.dead = true
	w := a.w
	a.crashed = w.now
	w.live = nil
	w.count("AM crashed")
	w.logf("attempt %d crashes %s", a.n, why)
	for _, id := range slices.Sorted(maps.Keys(a.conns)) {
		c := a.conns[id]
		c.toExecutor(func() { c.x.driverLost(c) })
	}
	for _, cl := range w.clients {
		cl.lost(a)
	}
	w.after(w.between(3*time.Second, 10*time.Second), w.startAttempt)
}

func mustJob(c *core.Core, now time.Time, id scheduler.JobID) core.JobInfo {
	info, _ := c.Job(now, id)
	return info
}

func itoa(i int) string { return strconv.Itoa(i) }

// quiet is the journal writer's log: the simulator's history says what
// matters.
var quiet = func() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	l.SetLevel(logrus.PanicLevel)
	return l
}()
