package handover

import (
	"maps"
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The containers YARN kept from the attempts before this one are taken
// over whatever the journal says: those whose executors the journal
// names are dialled and adopted with what they still run, the others
// released; and no task is placed until each is accounted for
// (core.Core.Kept). An RM that restarted names some in a later
// allocate, which are taken over the same way.

// Takeover is an attempt taking over the containers YARN kept, with
// what the journal said of their executors as it began.
type Takeover struct {
	// journalled are the executors the journal named; nil when the
	// attempt started over, which adopts none.
	journalled map[string]journal.Executor
	// drains are those of them that were draining, by container id.
	drains map[string]journal.Drain
	// wait bounds how long placement waits for the kept executors to
	// register again; stop how long for the released ones to be gone.
	wait, stop time.Duration
}

// Rejoin is a kept executor to dial, at its rejoin address, until it
// answers or the wait is over: it then registers again, with the
// attempts it still runs.
type Rejoin struct {
	Container string
	Address   string
}

// Kept hands core c the kept containers (each with its id and node, as
// YARN names it), with what the journal said of each, and returns the
// executors to dial: those whose addresses it knows. The others are
// released, and no task starts until they are gone.
func (t *Takeover) Kept(c *core.Core, now time.Time, kept []core.KeptContainer) []Rejoin {
	var dial []Rejoin
	cts := make([]core.KeptContainer, 0, len(kept))
	for _, k := range kept {
		if x, known := t.journalled[k.ID]; known {
			k.Journalled, k.Profile, k.GPUIndices = true, scheduler.ProfileID(x.Profile), x.GPUIndices
			k.AccelIndices, k.Drain = assignedIndices(x.AccelIndices), keptDrain(t.drains, k.ID)
			dial = append(dial, Rejoin{Container: k.ID, Address: x.Address})
		}
		cts = append(cts, k)
	}
	c.Kept(now, cts, t.wait, t.stop)
	return dial
}

// Wait bounds how long placement waits for the kept executors to
// register again: the dials to them may stop after it.
func (t *Takeover) Wait() time.Duration { return t.wait }

// StopSlack is what StopWait allows beyond an executor's own deadlines:
// the time its timer and its tasks' ends take to be done.
const StopSlack = 3 * time.Second

// StopWait bounds how long a kept container an attempt released holds
// placement while its NodeManager has not said it stopped: its
// executor, which no attempt reached, stops its tasks itself within
// rejoin (spindle.yarn.executor.rejoinTimeout) of losing its
// ApplicationMaster, before this attempt began, and they end within
// grace, their time to stop.
func StopWait(rejoin, grace time.Duration) time.Duration {
	return rejoin + grace + StopSlack
}

// AccelIndices are a container's accelerator indices as the journal
// keeps them; nil for none.
func AccelIndices(as []scheduler.Assigned) map[string][]string {
	if len(as) == 0 {
		return nil
	}
	m := make(map[string][]string, len(as))
	for _, a := range as {
		m[a.Name] = a.Addresses
	}
	return m
}

// assignedIndices reads back what AccelIndices journalled, by name.
func assignedIndices(m map[string][]string) []scheduler.Assigned {
	var out []scheduler.Assigned
	for _, name := range slices.Sorted(maps.Keys(m)) {
		out = append(out, scheduler.Assigned{Name: name, Addresses: m[name]})
	}
	return out
}
