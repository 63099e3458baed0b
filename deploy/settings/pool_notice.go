package settings

import (
	"fmt"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

// UndefinedPoolNotice says, as Spark's driver logs, that a job's pool is
// one the allocation file does not define, so the scheduler creates it
// with Spark's defaults; "" when the pool is defined. The pool "default"
// needs no file.
func UndefinedPoolNotice(conf *config.Config, pool string, pools []scheduler.PoolConfig) string {
	if pool == "default" {
		return ""
	}
	for _, p := range pools {
		if p.Name == pool {
			return ""
		}
	}
	why := "no allocation file is set (spindle.scheduler.allocation.file)"
	if file, _ := conf.String("spindle.scheduler.allocation.file"); file != "" {
		why = file + " does not define it"
	}
	d := scheduler.DefaultPoolConfig(pool)
	return fmt.Sprintf("pool %q: %s; created with Spark's defaults (weight %d, minShare %d, %v)", pool, why, d.Weight, d.MinShare, d.Mode)
}
