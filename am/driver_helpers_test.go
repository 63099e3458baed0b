package am_test

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// What the driver's tests (on am/amtest) share.

// runOnYARN runs a one-task job on YARN with f as its RM, changed by
// change, and returns why the application failed.
func runOnYARN(t *testing.T, f *amtest.FakeRM, change ...func(*am.YARN)) error {
	t.Helper()
	return amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(f, change...)).Wait(t).Failure()
}

// startSession runs a session of executors of 2 cores, with one such
// executor that runs a task whose command is sleep until it is killed,
// any other succeeding at once; in a pool named adhoc it says it made up
// the pool.
func startSession(t *testing.T, opts ...amtest.Option) *amtest.Driver {
	t.Helper()
	opts = append([]amtest.Option{
		amtest.WithCore(func(c *core.Config) { c.AppID, c.Profiles = "local-session", []scheduler.Profile{{Cores: 2}} }),
		amtest.WithConfig(func(c *am.Config) {
			c.PoolNotice = func(pool string) string {
				if pool == "adhoc" {
					return `pool "adhoc": created with Spark's defaults`
				}
				return ""
			}
		}),
	}, opts...)
	d := amtest.StartSession(t, opts...)
	e := d.Register(t, "e1", amtest.Cores(2))
	e.Registered(t)
	e.Serve()
	return d
}

// jobStates are jobs as name/pool/state.
func jobStates(jobs []*wire.JobInfo) string {
	var s []string
	for _, j := range jobs {
		s = append(s, j.GetName()+"/"+j.GetPool()+"/"+j.GetState())
	}
	return strings.Join(s, " ")
}

// statusJobStates are a status's jobs as name/pool/state.
func statusJobStates(st core.Status) string {
	var s []string
	for _, j := range st.Jobs {
		s = append(s, j.Name+"/"+j.Pool+"/"+j.State)
	}
	return strings.Join(s, " ")
}
