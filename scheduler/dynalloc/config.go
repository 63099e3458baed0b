package dynalloc

import (
	"fmt"
	"math"
	"time"
)

// Policy picks how the target moves.
type Policy int

const (
	// Spindle's default: ask for the whole target at once (again at most
	// every SustainedBacklogTimeout while the backlog lasts), lower it
	// only after demand stayed low for RampDownDelay, release idle
	// executors after SurplusIdleTimeout or IdleTimeout, whichever is
	// shorter, while a warm pool waits WarmPoolIdleTimeout.
	PolicySpindle Policy = iota
	// PolicySpark is Spark's ExecutorAllocationManager, exactly.
	PolicySpark
)

// ParsePolicy reads spindle.dynamicAllocation.policy.
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "spindle":
		return PolicySpindle, nil
	case "spark":
		return PolicySpark, nil
	}
	return 0, fmt.Errorf("spindle.dynamicAllocation.policy: %q: want spindle or spark", s)
}

func (p Policy) String() string {
	if p == PolicySpark {
		return "spark"
	}
	return "spindle"
}

// Config holds the dynamic allocation settings; the comments name the
// spindle.dynamicAllocation.* keys (spark.dynamicAllocation.* aliases).
type Config struct {
	Policy Policy

	MinExecutors      int // minExecutors (0)
	MaxExecutors      int // maxExecutors (unlimited)
	InitialExecutors  int // initialExecutors (minExecutors)
	ExecutorInstances int // spindle.executor.instances: counts towards the initial target

	AllocationRatio         float64       // executorAllocationRatio (1.0), in (0,1]
	IdleTimeout             time.Duration // executorIdleTimeout (60s); Spindle's policy: or SurplusIdleTimeout if shorter
	BacklogTimeout          time.Duration // schedulerBacklogTimeout (1s)
	SustainedBacklogTimeout time.Duration // sustainedSchedulerBacklogTimeout (= backlog)

	// Spindle's policy only.
	WarmPoolSize        int           // warmPool.size (1): idle executors kept for WarmPoolIdleTimeout
	WarmPoolIdleTimeout time.Duration // warmPool.idleTimeout (60s)
	SurplusIdleTimeout  time.Duration // surplusIdleTimeout (15s): idle beyond the warm pool, or IdleTimeout if shorter
	RampDownDelay       time.Duration // rampDownDelay (5s): demand must stay low this long
}

// Validate checks the settings, naming the key of the first one at fault.
func (c Config) Validate() error {
	const k = "spindle.dynamicAllocation."
	switch {
	case c.MinExecutors < 0:
		return fmt.Errorf("%sminExecutors: %d: cannot be negative", k, c.MinExecutors)
	case c.MaxExecutors <= 0:
		return fmt.Errorf("%smaxExecutors: %d: must be positive", k, c.MaxExecutors)
	case c.MinExecutors > c.MaxExecutors:
		return fmt.Errorf("%sminExecutors (%d) is above %smaxExecutors (%d)", k, c.MinExecutors, k, c.MaxExecutors)
	case c.InitialExecutors < 0:
		return fmt.Errorf("%sinitialExecutors: %d: cannot be negative", k, c.InitialExecutors)
	case c.InitialExecutors > c.MaxExecutors:
		return fmt.Errorf("%sinitialExecutors (%d) is above %smaxExecutors (%d)", k, c.InitialExecutors, k, c.MaxExecutors)
	case math.IsNaN(c.AllocationRatio) || c.AllocationRatio <= 0 || c.AllocationRatio > 1:
		return fmt.Errorf("%sexecutorAllocationRatio: %v: must be in (0,1]", k, c.AllocationRatio)
	case c.IdleTimeout < 0:
		return fmt.Errorf("%sexecutorIdleTimeout: %v: cannot be negative", k, c.IdleTimeout)
	case c.BacklogTimeout <= 0:
		return fmt.Errorf("%sschedulerBacklogTimeout: %v: must be positive", k, c.BacklogTimeout)
	case c.SustainedBacklogTimeout <= 0:
		return fmt.Errorf("%ssustainedSchedulerBacklogTimeout: %v: must be positive", k, c.SustainedBacklogTimeout)
	case c.WarmPoolSize < 0:
		return fmt.Errorf("%swarmPool.size: %d: cannot be negative", k, c.WarmPoolSize)
	case c.WarmPoolIdleTimeout < 0:
		return fmt.Errorf("%swarmPool.idleTimeout: %v: cannot be negative", k, c.WarmPoolIdleTimeout)
	case c.SurplusIdleTimeout < 0:
		return fmt.Errorf("%ssurplusIdleTimeout: %v: cannot be negative", k, c.SurplusIdleTimeout)
	case c.RampDownDelay < 0:
		return fmt.Errorf("%srampDownDelay: %v: cannot be negative", k, c.RampDownDelay)
	}
	return nil
}

// initialTarget is Spark's: max(minExecutors, initialExecutors,
// spindle.executor.instances), within maxExecutors.
func (c Config) initialTarget() int {
	return min(max(c.MinExecutors, c.InitialExecutors, c.ExecutorInstances), c.MaxExecutors)
}
