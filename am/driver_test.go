package am_test

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
)

// Without LossReasonWait (local mode) a closed connection is a blameless
// loss at once.
func TestDriverLossIsImmediateWithoutWait(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	e := d.Register(t, "e1")
	e.Launches(t)
	e.Vanish()
	d.AwaitStatus(t, "the executor gone and its task pending", func(st core.Status) bool { return len(st.Executors) == 0 && st.Pending == 1 })
}
