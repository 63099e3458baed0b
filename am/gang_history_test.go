package am_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The driver tells the history each run of a gang, where its ranks meet
// and what accelerators they hold: after rank 1 exits 1, the gang's view
// says so and shows the second run's MASTER_ADDR:MASTER_PORT.
func TestTheHistoryFollowsAGangsRuns(t *testing.T) {
	store := history.NewStore(history.Limits{})
	d := amtest.StartSpec(t, `name: j
stages:
  - {name: train, tasks: 2, gang: true, command: [run], maxAttempts: 2}
`, amtest.WithConfig(func(c *am.Config) { c.Observe = am.Observation{Store: store} }))
	e := d.Register(t, "e1", amtest.Cores(2), amtest.Host("gpu7"))
	for run := 0; run < 2; run++ {
		e.PortPicked(t, e.PickPort(t).GetGang(), 29500+int32(run))
		ranks := map[int32]*wire.Launch{}
		for _, l := range e.Launches(t) {
			ranks[l.GetTaskIndex()] = l
		}
		if run == 0 {
			e.Report(t, amtest.Failed(ranks[1], "exit status 1", 1))
			e.Report(t, amtest.Killed(e.Kill(t)))
		}
	}
	d.Await(t, "the second run in the history", func(am.Turn) bool {
		g, ok := store.Gang(time.Now(), 0)
		return ok && g.Runs == 2
	})
	g, _ := store.Gang(time.Now(), 0)
	if g.Master != "gpu7:29501" || len(g.Restarts) != 1 || g.Restarts[0].Reason != "rank 1 exited 1" || len(g.Ranks) != 2 {
		t.Errorf("the gang's history: %+v; want 2 runs, the second at gpu7:29501, one restart for rank 1's exit", g)
	}
}

// A gang's try that timed out is a restart in its history, with the
// scheduler's words.
func TestTheHistoryTellsAGangsTimeout(t *testing.T) {
	store := history.NewStore(history.Limits{})
	d := amtest.StartSpec(t, `name: j
stages:
  - {name: train, tasks: 3, gang: true, command: [run]}
`, amtest.WithConfig(func(c *am.Config) {
		c.Observe = am.Observation{Store: store}
		c.Core.Scheduler.Gang = scheduler.GangConfig{Timeout: 50 * time.Millisecond, MaxRetries: 5}
	}))
	d.Register(t, "e1", amtest.Cores(2))
	d.Await(t, "a timeout in the history", func(am.Turn) bool {
		g, ok := store.Gang(time.Now(), 0)
		return ok && len(g.Restarts) > 0
	})
	g, _ := store.Gang(time.Now(), 0)
	if r := g.Restarts[0].Reason; !strings.HasPrefix(r, `timed out waiting: gang stage "train" of job "j": 2 of 3 tasks`) {
		t.Errorf("restart %q, want the timeout's", r)
	}
}
