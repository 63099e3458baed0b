package dynalloc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func sparkConfig() Config {
	return Config{Policy: PolicySpark, MaxExecutors: 1 << 30, AllocationRatio: 1, IdleTimeout: 60 * time.Second,
		BacklogTimeout: time.Second, SustainedBacklogTimeout: time.Second}
}

func spindleConfig() Config {
	c := sparkConfig()
	c.Policy = PolicySpindle
	c.WarmPoolSize, c.WarmPoolIdleTimeout, c.SurplusIdleTimeout, c.RampDownDelay = 1, 60*time.Second, 15*time.Second, 5*time.Second
	return c
}

func demand(running, pending, tpe int) []scheduler.StageDemand {
	return []scheduler.StageDemand{{Stage: 1, Running: running, Pending: pending, TasksPerExecutor: tpe}}
}

func mustNew(t *testing.T, c Config) *Manager {
	t.Helper()
	m, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func one(t *testing.T, m *Manager, now time.Time, p Profile) Decision {
	t.Helper()
	ds := m.Update(now, []Profile{p})
	if len(ds) != 1 {
		t.Fatalf("%d decisions", len(ds))
	}
	return ds[0]
}

// The doubling ramp against a hand-worked timeline: 100 pending tasks, one
// per executor, backlog and sustained timeouts of 1s, no executor arriving.
// Adds happen at 1s, 2s, ... adding 1, 2, 4, 8, 16, 32, then the 37 that
// reach what is needed.
func TestSparkDoublingRampTimeline(t *testing.T) {
	m := mustNew(t, sparkConfig())
	want := map[float64]int{0: 0, 0.5: 0, 1: 1, 1.5: 1, 2: 3, 3: 7, 4: 15, 5: 31, 6: 63, 7: 100, 8: 100, 9: 100}
	for _, s := range []float64{0, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9} {
		d := one(t, m, at(s), Profile{ID: 0, Demand: demand(0, 100, 1)})
		if d.Total != want[s] {
			t.Fatalf("at %vs target %d, want %d", s, d.Total, want[s])
		}
	}
}

// Spark's formula: ceil((running + pending) × ratio ÷ tasksPerExecutor).
func TestSparkMaxNeededFormula(t *testing.T) {
	for _, c := range []struct {
		running, pending, tpe int
		ratio                 float64
		want                  int
	}{
		{10, 7, 4, 0.5, 3}, {0, 1, 8, 1, 1}, {16, 16, 8, 1, 4}, {33, 0, 8, 1, 5}, {3, 0, 1, 1.0 / 3, 1}, {100, 0, 3, 0.9, 30},
	} {
		cfg := sparkConfig()
		cfg.AllocationRatio = c.ratio
		m := mustNew(t, cfg)
		got := m.maxNeeded(Profile{Demand: demand(c.running, c.pending, c.tpe)}, 0)
		if got != c.want {
			t.Errorf("running %d pending %d tpe %d ratio %v: needed %d, want %d", c.running, c.pending, c.tpe, c.ratio, got, c.want)
		}
	}
}

func TestSpeculationAddsOneWhenASingleExecutorWouldDo(t *testing.T) {
	m := mustNew(t, sparkConfig())
	p := Profile{Demand: demand(1, 0, 4), SpeculativePending: 1}
	if got := m.maxNeeded(p, 1); got != 2 {
		t.Fatalf("needed %d, want 2", got)
	}
	p.Demand = demand(1, 0, 1)
	if got := m.maxNeeded(p, 1); got != 1 {
		t.Fatalf("one task per executor: needed %d, want 1 (no offset)", got)
	}
}

// A stage's copies waiting (StageDemand.Speculative) count as pending
// tasks, as Spark's ExecutorAllocationManager counts speculative ones,
// and ask for a second executor where one would do (a copy never runs
// beside its task).
func TestStageCopiesCountAsPending(t *testing.T) {
	m := mustNew(t, sparkConfig())
	d := demand(4, 0, 2)
	if got := m.maxNeeded(Profile{Demand: d}, 2); got != 2 {
		t.Fatalf("no copies: needed %d, want 2", got)
	}
	d[0].Speculative = 1
	if got := m.maxNeeded(Profile{Demand: d}, 2); got != 3 {
		t.Fatalf("4 running and a copy, 2 an executor: needed %d, want 3", got)
	}
	d = demand(1, 0, 4)
	d[0].Speculative = 1
	if got := m.maxNeeded(Profile{Demand: d}, 1); got != 2 {
		t.Fatalf("1 running and its copy: needed %d, want 2 (never beside it)", got)
	}
}

func TestExclusionBlockedTaskSetsGetExtraExecutors(t *testing.T) {
	m := mustNew(t, sparkConfig())
	d := demand(0, 4, 4)
	d[0].ExcludedOnly = true
	// 4 pending tasks need 1 executor, but the 3 there are all excluded.
	if got := m.maxNeeded(Profile{Demand: d}, 3); got != 4 {
		t.Fatalf("needed %d, want executors + 1 = 4", got)
	}
}

func TestRampDownLowersTargetButNeverKillsBusyExecutors(t *testing.T) {
	m := mustNew(t, sparkConfig())
	for s := 0.0; s <= 4; s++ {
		one(t, m, at(s), Profile{Demand: demand(0, 8, 1)})
	}
	if m.Target(0) != 8 {
		t.Fatalf("target %d after ramp, want 8", m.Target(0))
	}
	busy := []Executor{{ID: "a", Running: 1}, {ID: "b", Running: 1}, {ID: "c", Idle: at(5)}}
	d := one(t, m, at(5), Profile{Demand: demand(2, 0, 1), Executors: busy})
	if d.Total != 2 {
		t.Fatalf("target %d after demand fell to 2 running, want 2", d.Total)
	}
	if len(d.Release) != 0 {
		t.Fatalf("released %v at once; idle executors go by the idle timeout", d.Release)
	}
	d = one(t, m, at(66), Profile{Demand: demand(2, 0, 1), Executors: busy})
	if !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"c"}) {
		t.Fatalf("released %v after 61s idle, want [c] (a and b are busy)", d.Release)
	}
}

func TestIdleReleaseNeverGoesBelowMinOrTarget(t *testing.T) {
	cfg := sparkConfig()
	cfg.MinExecutors = 2
	m := mustNew(t, cfg)
	idle := []Executor{{ID: "a", Idle: t0}, {ID: "b", Idle: t0}, {ID: "c", Idle: t0}, {ID: "d", Idle: t0}}
	d := one(t, m, at(61), Profile{Executors: idle})
	if !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"a", "b"}) {
		t.Fatalf("released %v, want [a b]: two must stay for minExecutors", d.Release)
	}
	// Released executors still reported (on their way out) are not counted
	// or released again.
	d = one(t, m, at(62), Profile{Executors: idle})
	if len(d.Release) != 0 {
		t.Fatalf("released %v again", d.Release)
	}

	m = mustNew(t, sparkConfig())
	for s := 0.0; s <= 3; s++ {
		one(t, m, at(s), Profile{Demand: demand(0, 3, 1)})
	}
	// Target 3 with 3 running tasks elsewhere: an idle 4th may go, not more.
	execs := []Executor{{ID: "a", Running: 1}, {ID: "b", Running: 1}, {ID: "c", Running: 1}, {ID: "d", Idle: t0}, {ID: "e", Idle: t0}}
	d = one(t, m, at(70), Profile{Demand: demand(3, 0, 1), Executors: execs})
	if !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"d", "e"}) {
		t.Fatalf("released %v, want [d e] (3 remain for the target of 3)", d.Release)
	}
}

func TestInitialTargetAndInitializing(t *testing.T) {
	cfg := sparkConfig()
	cfg.MinExecutors, cfg.InitialExecutors, cfg.ExecutorInstances = 1, 3, 5
	m := mustNew(t, cfg)
	if m.Target(0) != 5 {
		t.Fatalf("initial target %d, want max(1,3,5) = 5", m.Target(0))
	}
	// No demand yet: the initial target holds while initializing.
	execs := []Executor{{ID: "a", Idle: t0}, {ID: "b", Idle: t0}}
	if d := one(t, m, at(10), Profile{Executors: execs}); d.Total != 5 || len(d.Release) != 0 {
		t.Fatalf("while initializing: %+v, want target 5 and nothing released", d)
	}
	// Once executors idle out, initializing ends and the target falls to min.
	if d := one(t, m, at(61), Profile{Executors: execs}); d.Total != 1 || len(d.Release) != 1 {
		t.Fatalf("after idling out: %+v, want target 1 and one release", d)
	}
}

func TestValidationNamesTheKey(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.MinExecutors, c.MaxExecutors = 5, 2 }, "minExecutors (5) is above spindle.dynamicAllocation.maxExecutors (2)"},
		{func(c *Config) { c.AllocationRatio = 1.5 }, "spindle.dynamicAllocation.executorAllocationRatio: 1.5"},
		{func(c *Config) { c.AllocationRatio = 0 }, "executorAllocationRatio: 0"},
		{func(c *Config) { c.IdleTimeout = -time.Second }, "spindle.dynamicAllocation.executorIdleTimeout: -1s"},
		{func(c *Config) { c.BacklogTimeout = 0 }, "spindle.dynamicAllocation.schedulerBacklogTimeout"},
		{func(c *Config) { c.InitialExecutors = -1 }, "spindle.dynamicAllocation.initialExecutors: -1"},
	} {
		cfg := sparkConfig()
		c.mod(&cfg)
		_, err := New(cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want it to contain %q", err, c.want)
		}
	}
}

func TestSpindleAsksForTheWholeTargetOnce(t *testing.T) {
	m := mustNew(t, spindleConfig())
	if d := one(t, m, at(0), Profile{Demand: demand(0, 100, 4)}); d.Total != 0 {
		t.Fatalf("target %d before the backlog timeout, want 0", d.Total)
	}
	if d := one(t, m, at(1), Profile{Demand: demand(0, 100, 4)}); d.Total != 25 {
		t.Fatalf("target %d at the backlog timeout, want all 25 at once", d.Total)
	}
}

func TestSpindleRampDownWaitsForTheDelay(t *testing.T) {
	m := mustNew(t, spindleConfig())
	one(t, m, at(0), Profile{Demand: demand(0, 40, 4)})
	one(t, m, at(1), Profile{Demand: demand(0, 40, 4)})
	// A dip: for 4s only 8 tasks.
	for s := 2.0; s < 6; s++ {
		if d := one(t, m, at(s), Profile{Demand: demand(8, 0, 4)}); d.Total != 10 {
			t.Fatalf("at %vs target %d, want 10 held through the dip", s, d.Total)
		}
	}
	if d := one(t, m, at(7), Profile{Demand: demand(8, 0, 4)}); d.Total != 2 {
		t.Fatalf("target %d after 5s low, want 2", d.Total)
	}
}

func TestSpindleWarmPoolOutlastsSurplus(t *testing.T) {
	m := mustNew(t, spindleConfig())
	var execs []Executor
	for i := 0; i < 4; i++ {
		execs = append(execs, Executor{ID: scheduler.ExecutorID(fmt.Sprint("e", i)), Idle: at(float64(i))})
	}
	one(t, m, at(0), Profile{Executors: execs}) // leave initializing via timeouts later
	d := one(t, m, at(20), Profile{Executors: execs})
	// All idle ≥ 15s: the most recently idle (e3) stays warm.
	if !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"e0", "e1", "e2"}) {
		t.Fatalf("released %v, want e0 e1 e2 with e3 kept warm", d.Release)
	}
	d = one(t, m, at(64), Profile{Executors: execs[3:]})
	if !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"e3"}) {
		t.Fatalf("released %v after the warm pool timeout, want [e3]", d.Release)
	}
}
