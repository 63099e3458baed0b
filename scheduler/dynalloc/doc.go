// Package dynalloc decides how many executors each resource profile should
// have: Spark's executor allocation manager, and Spindle's default policy
// built on it. Like the scheduler core it is pure: the clock comes in as a
// value, and each Update returns, per profile, the total number of
// executors to hold (running plus requested) and the idle executors to
// release.
//
// The loop a caller writes, every tick (Spark's is 100ms):
//
//	ds := m.Update(now, []dynalloc.Profile{{
//		ID:        p,
//		Demand:    sched.Demand(now, p),
//		Executors: executorsOf(p), // from sched.Executors()
//	}})
//	for _, d := range ds {
//		// ask the RM for d.Total containers of d.Profile, cancelling
//		// pending requests first when fewer are needed; stop d.Release.
//	}
//
// config.go names the two policies and the configuration keys each field
// comes from; manager.go holds the rules. Both policies honour every key
// they share (the idle, backlog and sustained backlog timeouts among
// them); the warm pool, surplusIdleTimeout and rampDownDelay are Spindle's
// policy's own.
package dynalloc
