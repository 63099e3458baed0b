package dynalloc

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage shape's profile holds executors only for its tasks, under both
// policies: it starts at zero whatever initialExecutors and minExecutors
// say, rises with its backlog, and once its stages are done falls to zero
// and gives back every executor idle past the timeout, minExecutors
// notwithstanding.
func TestOnDemandProfileHoldsExecutorsOnlyForItsTasks(t *testing.T) {
	for _, cfg := range []Config{sparkConfig(), spindleConfig()} {
		cfg.MinExecutors, cfg.InitialExecutors, cfg.ExecutorInstances = 2, 3, 3
		m := mustNew(t, cfg)
		if d := one(t, m, at(0), Profile{ID: 1, OnDemand: true}); d.Total != 0 {
			t.Fatalf("%v: before any demand the target is %d, want 0", cfg.Policy, d.Total)
		}
		var d Decision
		for s := 1; s <= 10; s++ { // Spark's ramp adds one, then two
			d = one(t, m, at(float64(s)), Profile{ID: 1, OnDemand: true, Demand: demand(0, 4, 2)})
		}
		if d.Total != 2 {
			t.Fatalf("%v: with 4 tasks of 2 per executor waiting the target is %d, want 2", cfg.Policy, d.Total)
		}
		execs := []Executor{{ID: "a", Idle: at(20)}, {ID: "b", Idle: at(20)}}
		first := one(t, m, at(200), Profile{ID: 1, OnDemand: true, Executors: execs}) // Spindle's ramp-down delay starts
		d = one(t, m, at(210), Profile{ID: 1, OnDemand: true, Executors: execs})
		d.Release = append(first.Release, d.Release...)
		if d.Total != 0 || !reflect.DeepEqual(d.Release, []scheduler.ExecutorID{"a", "b"}) {
			t.Fatalf("%v: with no task left: %+v, want target 0 and both released", cfg.Policy, d)
		}
		// The default profile keeps minExecutors as ever: its idle executors stay.
		d = one(t, m, at(300), Profile{ID: 0, Executors: execs})
		if d.Total < 2 || len(d.Release) != 0 {
			t.Fatalf("%v: default profile: %+v, want at least minExecutors 2 and nothing released", cfg.Policy, d)
		}
	}
}
