package settings

import (
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
)

func TestUndefinedPoolGetsANotice(t *testing.T) {
	withFile, err := config.Load(nil, []string{"spindle.scheduler.allocation.file=pools.xml"})
	if err != nil {
		t.Fatal(err)
	}
	noFile, err := config.Load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defined := []scheduler.PoolConfig{{Name: "prod", Weight: 2}}
	for _, c := range []struct {
		conf  *config.Config
		pool  string
		pools []scheduler.PoolConfig
		want  string
	}{
		{withFile, "prod", defined, ""},
		{noFile, "default", nil, ""},
		{withFile, "Prod", defined, `pool "Prod": pools.xml does not define it; created with Spark's defaults (weight 1, minShare 0, FIFO)`},
		{noFile, "prod", nil, `pool "prod": no allocation file is set (spindle.scheduler.allocation.file); created with Spark's defaults (weight 1, minShare 0, FIFO)`},
	} {
		if got := UndefinedPoolNotice(c.conf, c.pool, c.pools); got != c.want {
			t.Errorf("pool %q: notice %q, want %q", c.pool, got, c.want)
		}
	}
}
