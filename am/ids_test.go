package am_test

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session's next AM attempt with no journal to go on (issue 33, point
// 3) numbers its jobs from its own range: a client of the attempt before,
// coming back to follow its job 0, is told the session has no such job,
// never shown the progress of a new job that took the same id.
func TestASessionsNextAttemptNeverGivesAJobIDAgain(t *testing.T) {
	d := amtest.StartSession(t, amtest.WithCore(func(c *core.Config) { c.AMAttempt, c.Profiles = 2, []scheduler.Profile{{Cores: 1}} }),
		amtest.WithConfig(func(c *am.Config) { c.Resume = &am.Resumption{State: journal.NewState("local-session")} }))
	c := d.Client()
	if id := c.Submit(t, "name: new\nstages: [{name: s, tasks: 1, command: [run]}]\n"); id != core.IDsPerAMAttempt {
		t.Fatalf("the new attempt's first job took id %d; want %d", id, core.IDsPerAMAttempt)
	}
	out, err := c.Request(&wire.Envelope{Message: &wire.Envelope_FollowJob{FollowJob: &wire.FollowJob{JobId: 0}}})
	if err != nil || len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), "has no job 0") {
		t.Fatalf("following job 0 of the attempt before: %v, %v; want it refused", out, err)
	}
}
