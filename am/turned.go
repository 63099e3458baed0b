package am

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// Turn is the loop at the end of one of its turns, as Config.Turned sees
// it, in the loop: a test reads the state it waits for here, once per
// turn, rather than asking for it again and again from outside.
type Turn struct {
	d   *Driver
	now time.Time
}

// Status is the driver's Status as of the turn's end: what Driver.Status
// would have answered then.
func (t Turn) Status() core.Status { return t.d.withGPUs(t.d.core.Status(t.now)) }

// Rejected counts the executor connections refused so far, as a job's
// Summary.Rejected counts them at its end.
func (t Turn) Rejected() int { return t.d.core.RejectedSoFar() }
