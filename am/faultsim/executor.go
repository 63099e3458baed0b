package faultsim

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/exitstatus"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Executor behaviour, as package executor has it (executor/rejoin.go,
// status_sender.go): when its AM's connection ends it keeps its tasks
// running and holds their reports, waiting Schedule.Rejoin for a next
// AM to dial in; past that it stops them (each ending within stopGrace)
// and exits. Dialled, it registers again with the attempts it still
// runs and sends, first of all, the successes it sent in the last
// resendWithin (the AM that died may not have journalled them) and what
// it held.
const (
	stopGrace    = 2 * time.Second
	resendWithin = 30 * time.Second
	resendAtMost = 4096
)

type executor struct {
	w       *world
	c       *container
	id      string
	address string
	gpus    []string
	// conn is the connection it serves; nil while it has no AM.
	conn   *conn
	driven bool // an AM has had it
	// stopping: it stops its tasks on its way out, and takes no AM.
	stopping bool
	gone     bool // its process ended
	// waiting counts its waits for a next AM: a timer of an earlier one
	// does nothing.
	waiting int
	runs    []*run   // live, in launch order
	held    []status // not yet sent
	recent  []sent   // successes sent lately, oldest first
}

// status is a task's report, with the task it is of in the world (the
// AM reads only the attempt).
type status struct {
	st  core.TaskStatus
	key taskKey
}

type sent struct {
	s  status
	at time.Time
}

// startExecutor is a NodeManager starting an executor in container c,
// for attempt a, which it dials: an attempt that died meanwhile cannot
// be reached, and the executor exits.
func startExecutor(a *attempt, c *container, gpus []string) {
	w := a.w
	if c.stopped || !c.node.up || c.x != nil {
		return
	}
	x := &executor{w: w, c: c, id: c.id, address: c.id + ".executor:7077", gpus: gpus}
	c.x = x
	if a.dead {
		w.logf("executor %s cannot reach attempt %d, which died: it exits", x.id, a.n)
		w.after(time.Second, func() { x.exit(1, "could not reach its ApplicationMaster") })
		return
	}
	x.connect(a, false)
}

// connect opens a connection to attempt a and registers over it;
// rejoining, with the attempts it still runs.
func (x *executor) connect(a *attempt, rejoining bool) {
	if x.conn != nil && x.conn.a != a {
		old := x.conn
		old.toAttempt(func() { old.a.connEnded(old, "a new ApplicationMaster took the executor over") })
	}
	c := &conn{a: a, x: x}
	x.conn = c
	x.waiting++
	var running []core.RunningAttempt
	if rejoining {
		for _, r := range x.runs {
			running = append(running, core.RunningAttempt{Attempt: r.attempt, GPUs: r.gpus})
		}
	}
	reg := core.Registration{Executor: scheduler.ExecutorID(x.id), Host: x.c.node.name, Cores: 2, GPUs: x.gpus, Running: running}
	c.toAttempt(func() { a.register(c, reg, x.address) })
}

// registered is the AM's answer: it serves the AM, and one that took it
// over from another first gets what it held, in a batch even if none.
func (x *executor) registered(c *conn) {
	rejoined := x.driven
	x.driven = true
	if len(x.recent) > 0 {
		held := make([]status, 0, len(x.recent)+len(x.held))
		for _, s := range x.recent {
			held = append(held, s.s)
		}
		x.held, x.recent = append(held, x.held...), nil
	}
	if rejoined || len(x.held) > 0 {
		x.send(x.held)
		x.held = nil
	}
}

// refused: the AM would not have it; it stops its tasks and exits.
func (x *executor) refused(why string) {
	x.w.logf("executor %s refused: %s", x.id, why)
	x.stopping = true
	x.stopAll()
	x.exit(1, "refused: "+why)
}

// report sends a task's status, or holds it while there is no AM.
func (x *executor) report(s status) {
	if x.conn == nil || !x.driven {
		x.held = append(x.held, s)
		return
	}
	x.send([]status{s})
}

func (x *executor) send(sts []status) {
	c := x.conn
	for _, s := range sts {
		if s.st.State == core.TaskSucceeded {
			x.recent = append(x.recent, sent{s, x.w.now})
		}
	}
	drop := max(len(x.recent)-resendAtMost, 0)
	for drop < len(x.recent) && x.w.now.Sub(x.recent[drop].at) > resendWithin {
		drop++
	}
	x.recent = x.recent[drop:]
	batch := append([]status(nil), sts...)
	c.toAttempt(func() { c.a.statuses(c, x.id, batch) })
}

// driverLost: the connection it served ended without a shutdown. It
// keeps its tasks for a next AM, until the rejoin timeout.
func (x *executor) driverLost(c *conn) {
	if x.conn != c {
		return
	}
	x.conn = nil
	x.waiting++
	wait := x.waiting
	x.w.logf("executor %s lost attempt %d: keeps %d tasks for up to %v", x.id, c.a.n, len(x.runs), x.w.s.Rejoin)
	x.w.after(x.w.s.Rejoin, func() {
		if x.waiting != wait || x.gone || x.conn != nil {
			return
		}
		x.w.count("executor gave up on its AM")
		x.w.logf("executor %s: no AM within the rejoin timeout: it stops its tasks and exits", x.id)
		x.stopping = true
		last := x.stopAll()
		x.w.at(last, func() { x.exit(exitstatus.DriverGone, "no new ApplicationMaster came") })
	})
}

// dialled: a new attempt reaches the executor's rejoin listener. It
// answers while its process runs, unless it is on its way out (its
// rejoin timeout passed: executor.awaitDriver has returned, and nothing
// takes a connection dialled in).
func (x *executor) dialled(a *attempt) bool {
	if x.gone || x.c.stopped || x.stopping {
		return false
	}
	if x.conn != nil && x.conn.a == a {
		return true
	}
	x.w.count("executor rejoined")
	x.w.logf("executor %s dialled by attempt %d: registers again with %d tasks", x.id, a.n, len(x.runs))
	x.connect(a, true)
	return true
}

// shutdown: the AM told it to stop.
func (x *executor) shutdown() {
	x.stopping = true
	last := x.stopAll()
	x.w.at(last, func() { x.exit(0, "shut down") })
}

// stopAll stops every task, each within stopGrace; it returns when the
// last has ended.
func (x *executor) stopAll() time.Time {
	last := x.w.now
	for _, r := range append([]*run(nil), x.runs...) {
		end := x.w.now.Add(x.w.between(0, stopGrace))
		r.stopAt(end, "its executor stopped it")
		if end.After(last) {
			last = end
		}
	}
	return last
}

// exit ends the executor's process: its container completes.
func (x *executor) exit(status int32, why string) {
	if x.gone {
		return
	}
	x.c.stop(why)
	x.w.rm.complete(x.c, status, why)
}

// die ends the process at once, and its tasks with it.
func (x *executor) die(why string) {
	if x.gone {
		return
	}
	x.gone = true
	x.w.logf("executor %s dies: %s", x.id, why)
	for _, r := range append([]*run(nil), x.runs...) {
		r.finish(killedRun, why)
	}
	if c := x.conn; c != nil {
		x.conn = nil
		c.toAttempt(func() { c.a.connEnded(c, "executor died: "+why) })
	}
}

// stop kills a container's processes (its NodeManager did, or its
// node went, or its executor exited).
func (c *container) stop(why string) {
	if c.stopped {
		return
	}
	c.stopped = true
	if c.x != nil {
		c.x.die(why)
	}
}
