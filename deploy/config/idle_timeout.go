package config

import (
	"fmt"
	"time"
)

// checkIdleTimeoutActs refuses an executorIdleTimeout set longer than
// surplusIdleTimeout under Spindle's policy with dynamic allocation on.
// There an idle executor beyond the warm pool goes after the shorter of
// the two (scheduler/dynalloc), so the longer value would say one thing
// and do another. A value no longer than surplusIdleTimeout acts, and one
// left at its default (Spark's 60s) is no one's promise.
func (c *Config) checkIdleTimeoutActs() error {
	const (
		k       = "spindle.dynamicAllocation."
		idle    = k + "executorIdleTimeout"
		surplus = k + "surplusIdleTimeout"
	)
	if !c.IsSet(idle) || c.values[k+"enabled"].parsed != true || c.values[k+"policy"].parsed != "spindle" {
		return nil
	}
	set, acts := c.values[idle].parsed.(time.Duration), c.values[surplus].parsed.(time.Duration)
	if set <= acts {
		return nil
	}
	return fmt.Errorf("%s: longer than %s (%v), it would do nothing: under %spolicy=spindle an idle executor goes after the shorter of the two (and the warm pool after %swarmPool.idleTimeout); raise %s instead, or set %spolicy=spark",
		c.Setting(idle).Where(), surplus, acts, k, k, surplus, k)
}
