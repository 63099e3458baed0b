package deploy

import (
	"errors"
	"fmt"
	"testing"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/exitstatus"
)

// An executor whose ApplicationMaster went exits saying so, for the AM
// to blame none of its tasks; any other error exits 1.
func TestAnExecutorThatLostItsAMExitsSayingSo(t *testing.T) {
	gone := fmt.Errorf("%w: driver connection ended", executor.ErrDriverGone)
	if got := ExitStatus(gone); got != exitstatus.DriverGone {
		t.Errorf("ExitStatus(%v) = %d; want %d", gone, got, exitstatus.DriverGone)
	}
	if got := ExitStatus(errors.New("registering: refused")); got != 1 {
		t.Errorf("ExitStatus of another error = %d; want 1", got)
	}
}
