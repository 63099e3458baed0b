package faultsim

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/scheduler"
)

// decide is a turn of the attempt's loop (am.Driver.turn): the core
// decides, and the batch is carried out and journalled; an allocate is
// answered at once, and the core decides again.
func (a *attempt) decide() {
	if a.dead || a.core == nil {
		return
	}
	for !a.dead {
		rd := a.core.Ready(a.w.now)
		a.carryOut(&rd)
		if a.dead || rd.Unregister != nil {
			return
		}
		if rd.Allocate == nil {
			a.sleep(rd.Next)
			return
		}
		res, kept, resync := a.w.rm.allocate(a.n, rd.Allocate)
		if resync {
			a.w.count("AM resynced with the RM")
			a.w.logf("attempt %d registers again with the RM, which forgot it", a.n)
			a.core.Resynced(a.w.now)
			continue
		}
		a.allocated(res, kept)
	}
}

// sleep has the loop wake at next, when the core needs a call.
func (a *attempt) sleep(next time.Time) {
	if next.IsZero() || next.Equal(a.wake) {
		return
	}
	a.wake = next
	a.w.at(next, func() {})
}

// carryOut does what a batch says (am.Driver.carryOut and turn).
func (a *attempt) carryOut(rd *core.Ready) {
	w := a.w
	for _, l := range rd.Launches {
		key := taskKey{job: l.Job, stage: l.StageIndex, index: l.Attempt.Task.Index}
		w.h.launched(a, l, key)
		if c := a.conns[l.Executor]; c != nil {
			now := w.now
			c.toExecutor(func() { c.x.launch(l, key, a.n, now) })
		}
	}
	for _, k := range rd.Kills {
		if c := a.conns[k.Executor]; c != nil {
			c.toExecutor(func() { c.x.kill(k.Attempt) })
		}
	}
	for _, d := range rd.Disconnects {
		if c := a.conns[d.Executor]; c != nil {
			c.toExecutor(func() { c.x.shutdown() })
		}
	}
	for _, r := range rd.Removed {
		a.writtenOff[string(r.Executor)] = true
	}
	for _, s := range rd.StartContainers {
		c := w.rm.containers[s.Container]
		w.after(w.between(300*time.Millisecond, 2*time.Second), func() { startExecutor(a, c, s.GPUIndices) })
	}
	w.counts["kept container released"] += len(rd.StopKept)
	for _, id := range rd.StopKept {
		a.stopKept(w.rm.containers[id])
	}
	for _, f := range rd.TaskFailures {
		a.counted[taskKey{job: w.h.jobIDs[f.Job], stage: f.StageIndex, index: f.Index}]++
	}
	a.journal(handover.Turn(rd)...)
	for _, s := range rd.Finished {
		w.h.jobEnded(a, s)
		a.tellFollowers(s.ID)
	}
	if rd.Unregister != nil {
		a.unregistered(rd.Unregister)
	}
}

// stopKept has a released kept container's NodeManager stop it, and
// tells the core once it says it has; a NodeManager that is gone says
// nothing.
func (a *attempt) stopKept(c *container) {
	w := a.w
	if c == nil || !c.node.up {
		return
	}
	w.after(w.between(100*time.Millisecond, 2*time.Second), func() {
		if !c.node.up {
			return
		}
		c.stop("stopped by its NodeManager")
		w.after(w.latency(), func() {
			if !a.dead {
				a.core.KeptStopped(w.now, c.id)
			}
		})
	})
}

// allocated feeds the RM's answer to the core, taking over first the
// containers of earlier attempts it names (am.Driver.keptLater) and
// journalling the completed ones as gone.
func (a *attempt) allocated(res core.AllocateResult, kept []*container) {
	w := a.w
	var fresh []*container
	for _, c := range kept {
		if !a.known[c.id] {
			fresh = append(fresh, c)
		}
	}
	if a.takeover != nil && len(fresh) > 0 {
		w.count("kept containers named late")
		w.logf("attempt %d: the RM names %d more kept containers", a.n, len(fresh))
		a.dial(a.takeover.Kept(a.core, w.now, a.describe(fresh)))
	}
	for _, ct := range res.Allocated {
		a.known[ct.ID] = true
	}
	for _, done := range res.Completed {
		a.journal(handover.Gone(done.Container))
	}
	a.core.Allocated(w.now, res)
}

// register is an executor's Register reaching the attempt.
func (a *attempt) register(c *conn, reg core.Registration, address string) {
	w := a.w
	if a.core == nil {
		return
	}
	if err := a.core.Register(w.now, reg); err != nil {
		c.toExecutor(func() { c.x.refused(err.Error()) })
		return
	}
	a.conns[reg.Executor] = c
	delete(a.writtenOff, string(reg.Executor))
	if e, ok := handover.Executor(a.core, reg.Executor, address); ok {
		a.journal(e)
	}
	if !a.named[string(reg.Executor)].IsZero() {
		a.rejoinedAt[string(reg.Executor)] = w.now
	}
	c.toExecutor(func() { c.x.registered(c) })
}

// statuses are an executor's reports reaching the attempt: journalled
// first, as am.Driver does, then fed to the core.
func (a *attempt) statuses(c *conn, id string, sts []status) {
	eid := scheduler.ExecutorID(id)
	if a.core == nil || a.conns[eid] != c {
		return
	}
	cs := make([]core.TaskStatus, len(sts))
	for i, s := range sts {
		cs[i] = s.st
	}
	a.journal(handover.Succeeded(a.core, cs)...)
	a.core.Statuses(a.w.now, eid, cs)
	a.heardFrom(id, sts)
}

// connEnded is an executor's connection ending, at the attempt.
func (a *attempt) connEnded(c *conn, why string) {
	eid := c.x.executorID()
	if a.core == nil || a.conns[eid] != c {
		return
	}
	delete(a.conns, eid)
	a.core.ConnectionEnded(a.w.now, eid, why)
}

func (x *executor) executorID() scheduler.ExecutorID { return scheduler.ExecutorID(x.id) }

// unregistered: the application ended. A one-job application's does
// with its job; YARN then kills its containers. A session's never
// should.
func (a *attempt) unregistered(f *core.Final) {
	w := a.w
	if !w.s.OneJob {
		w.h.appEnded(a, f.Diagnostics)
		return
	}
	w.logf("attempt %d unregisters: succeeded %v %s", a.n, f.Succeeded, f.Diagnostics)
	w.over = true
	a.dead = true
	w.live = nil
	for _, c := range w.rm.order {
		c.stop("the application ended")
	}
}
