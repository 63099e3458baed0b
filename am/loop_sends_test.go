package am_test

import (
	"errors"
	"testing"

	"github.com/spindle-yarn/spindle/am/amtest"
)

// What the loop posts reaches the executor: a cancelled job's running
// task is killed.
func TestCancelledJobsTaskIsKilled(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	e := d.Register(t, "e1")
	e.Launches(t)
	d.Cancel(errors.New("interrupted"))
	e.Kill(t)
}
