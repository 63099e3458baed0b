package am_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/metrics"
)

// A pool made for a job's pool name is forgotten by the scheduler once
// its job has ended, and its series leave /metrics with it; the default
// pool's stay.
func TestAForgottenPoolLeavesTheMetrics(t *testing.T) {
	d := startSession(t, amtest.WithObservation(am.Observation{Store: history.NewStore(history.Limits{}), Metrics: metrics.New(),
		App: history.AppStarted{ID: "local-session"}}))
	h := d.TrackingPage()
	c := d.Client()
	c.SubmitFollow(t, "name: once\npool: tmp\nstages:\n  - {name: s, tasks: 2, command: [\"true\"]}\n")
	c.SubmitFollow(t, "name: plain\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n")
	d.AwaitStatus(t, "the scheduler forgot pool tmp", func(st core.Status) bool {
		return !slices.ContainsFunc(st.Pools, func(p core.PoolStatus) bool { return p.Name == "tmp" })
	})
	body := get(t, h, "/metrics").Body.String()
	for _, line := range strings.Split(body, "\n") {
		if strings.Contains(line, `pool="tmp"`) {
			t.Errorf("the forgotten pool's series is served: %s", line)
		}
	}
	if !strings.Contains(body, `spindle_tasks_ended_total{pool="default",state="succeeded"} 1`) {
		t.Errorf("the default pool's series are not served:\n%s", body)
	}
}
