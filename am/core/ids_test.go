package core

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// An AM attempt's ranges must fit the ids they number: the wire's task
// attempt numbers are 32-bit.
func TestAMAttemptsOutsideTheRangesAreRefused(t *testing.T) {
	cfg := Config{Profiles: []scheduler.Profile{{ID: 0, Cores: 1}}}
	for _, n := range []int{-1, maxAMAttempt + 1} {
		cfg.AMAttempt = n
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "want 1 to 1000000") {
			t.Errorf("AM attempt %d: %v, want it refused", n, err)
		}
	}
	cfg.AMAttempt = maxAMAttempt
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.firstAttempt != (maxAMAttempt-1)*AttemptsPerAMAttempt || c.firstJob != scheduler.JobID((maxAMAttempt-1)*IDsPerAMAttempt) {
		t.Fatalf("attempts from %d, jobs from %d", c.firstAttempt, c.firstJob)
	}
}
