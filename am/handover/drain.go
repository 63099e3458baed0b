package handover

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A drain outlives the attempt that began it: the journal records each
// executor that began draining (preempted, or its node decommissioning)
// with its deadline as an absolute time, and each a recommissioned node
// took back; the next attempt hands a kept container its drain again.

// Drains are the entries of the executors that began draining, their
// plan's deadline as an absolute time, and those a recommissioned node
// took back.
func Drains(started []core.DrainStarted, undrained []scheduler.ExecutorID) []journal.Entry {
	var out []journal.Entry
	for _, s := range started {
		e := journal.Drain{Container: string(s.Executor), Reason: s.Reason, Decommissioning: s.Decommissioning}
		if !s.ReleaseBy.IsZero() {
			e.ReleaseBy = s.ReleaseBy.UnixMilli()
		}
		out = append(out, journal.Entry{Drain: &e})
	}
	for _, id := range undrained {
		out = append(out, journal.Entry{Undrained: string(id)})
	}
	return out
}

// keptDrain is the drain the journal says a kept container's executor
// was on, as the core takes it; nil for none.
func keptDrain(drains map[string]journal.Drain, id string) *core.KeptDrain {
	x, ok := drains[id]
	if !ok {
		return nil
	}
	k := &core.KeptDrain{Reason: x.Reason, Decommissioning: x.Decommissioning}
	if x.ReleaseBy > 0 {
		k.ReleaseBy = time.UnixMilli(x.ReleaseBy)
	}
	return k
}
