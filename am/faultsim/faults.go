package faultsim

import "github.com/spindle-yarn/spindle/am/core"

// schedule sets a fault to happen. A crash on a store operation is the
// attempt's to meet (startAttempt); the others happen at their time, to
// whatever is there then.
func (w *world) schedule(f Fault) {
	if f.Kind == Crash && f.Op > 0 {
		return
	}
	w.at(epoch.Add(f.At), func() {
		w.logf("FAULT %s", f)
		switch f.Kind {
		case Crash:
			if w.live != nil {
				w.live.crash("at a time")
			}
		case RMRestart:
			w.rm.restart()
		case ExecutorLoss:
			if x := w.pick(f.Pick, false); x != nil {
				x.c.stop("executor lost")
				w.rm.complete(x.c, core.ExitAborted, "executor lost")
			}
		case NodeLoss:
			w.rm.loseNode(f.Node)
		case StoreOutage:
			w.store.outage(f)
		case Cut:
			if x := w.pick(f.Pick, true); x != nil {
				x.conn.sever()
			}
		}
	})
}

// pick is the i-th (modulo) executor whose process runs, of those a
// live AM serves when served.
func (w *world) pick(i int, served bool) *executor {
	var xs []*executor
	for _, c := range w.rm.order {
		if x := c.x; x != nil && !x.gone && (!served || x.conn != nil && !x.conn.a.dead) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return nil
	}
	return xs[i%len(xs)]
}

// jobPlan is the plan of the job of that name; nil for none.
func (w *world) jobPlan(name string) *JobPlan {
	for i, c := range w.s.Clients {
		for k := range c.Jobs {
			if jobName(i, k) == name {
				return &c.Jobs[k]
			}
		}
	}
	return nil
}

// failing is how many of a task's first runs fail.
func (w *world) failing(t taskKey) int {
	if p := w.jobPlan(t.job); p != nil {
		for _, f := range p.Failing {
			if f.Index == t.index {
				return f.Runs
			}
		}
	}
	return 0
}
