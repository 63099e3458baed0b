package dynalloc

import (
	"reflect"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// executorIdleTimeout releases idle executors under either policy: at the
// limit, not a millisecond before. Under Spindle's policy the warm pool
// still waits its own timeout, and surplusIdleTimeout acts when it is the
// shorter (TestSpindleWarmPoolOutlastsSurplus).
func TestExecutorIdleTimeoutActsUnderBothPolicies(t *testing.T) {
	const limit = 10 * time.Second
	for _, c := range []struct {
		cfg  Config
		want []scheduler.ExecutorID // released at the limit
	}{
		{sparkConfig(), []scheduler.ExecutorID{"a", "b"}},
		{spindleConfig(), []scheduler.ExecutorID{"a"}}, // b, the newest idle, kept warm
	} {
		c.cfg.IdleTimeout = limit
		idle := []Executor{{ID: "a", Idle: t0}, {ID: "b", Idle: t0}}
		before := one(t, mustNew(t, c.cfg), t0.Add(limit-time.Millisecond), Profile{Executors: idle})
		if len(before.Release) != 0 {
			t.Errorf("%v: released %v a millisecond before executorIdleTimeout", c.cfg.Policy, before.Release)
		}
		m := mustNew(t, c.cfg)
		if d := one(t, m, t0.Add(limit), Profile{Executors: idle}); !reflect.DeepEqual(d.Release, c.want) {
			t.Errorf("%v: released %v at executorIdleTimeout, want %v", c.cfg.Policy, d.Release, c.want)
		}
		if c.cfg.Policy != PolicySpindle {
			continue
		}
		warm := idle[1:]
		if d := one(t, m, t0.Add(c.cfg.WarmPoolIdleTimeout-time.Millisecond), Profile{Executors: warm}); len(d.Release) != 0 {
			t.Errorf("spindle: the warm executor released (%v) before warmPool.idleTimeout", d.Release)
		}
		if d := one(t, m, t0.Add(c.cfg.WarmPoolIdleTimeout), Profile{Executors: warm}); !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"b"}) {
			t.Errorf("spindle: released %v at warmPool.idleTimeout, want [b]", d.Release)
		}
	}
}

// sustainedSchedulerBacklogTimeout paces the raises after the first while
// the backlog lasts, under either policy: Spark's adds its doubling step,
// Spindle's the whole of what is needed, each at the limit after the last
// raise, not a millisecond before.
func TestSustainedBacklogTimeoutPacesRaisesUnderBothPolicies(t *testing.T) {
	for _, c := range []struct {
		cfg                  Config
		first, second, after int
	}{
		{sparkConfig(), 1, 1, 3},   // adds 1, then 2
		{spindleConfig(), 4, 4, 8}, // all 4 needed, then all 8
	} {
		c.cfg.SustainedBacklogTimeout = 3 * time.Second
		m := mustNew(t, c.cfg)
		for _, step := range []struct {
			at      time.Duration
			pending int
			want    int
		}{
			{0, 4, 0},
			{time.Second, 4, c.first}, // the backlog timeout
			{2 * time.Second, 8, c.second},
			{4*time.Second - time.Millisecond, 8, c.second},
			{4 * time.Second, 8, c.after}, // the first raise + sustained
		} {
			if d := one(t, m, t0.Add(step.at), Profile{Demand: demand(0, step.pending, 1)}); d.Total != step.want {
				t.Errorf("%v at %v with %d pending: target %d, want %d", c.cfg.Policy, step.at, step.pending, d.Total, step.want)
			}
		}
	}
}

// A warm pool whose own timeout is the shortest still lets its executor
// go at that timeout: the pool keeps executors longer, never shorter.
func TestWarmPoolIdleTimeoutShorterThanTheOthersStillActs(t *testing.T) {
	cfg := spindleConfig()
	cfg.WarmPoolIdleTimeout = 5 * time.Second // below surplus (15s) and idle (60s)
	idle := []Executor{{ID: "a", Idle: t0}}
	if d := one(t, mustNew(t, cfg), t0.Add(5*time.Second-time.Millisecond), Profile{Executors: idle}); len(d.Release) != 0 {
		t.Errorf("released %v before warmPool.idleTimeout", d.Release)
	}
	if d := one(t, mustNew(t, cfg), t0.Add(5*time.Second), Profile{Executors: idle}); !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"a"}) {
		t.Errorf("released %v at warmPool.idleTimeout, want [a]", d.Release)
	}
}
