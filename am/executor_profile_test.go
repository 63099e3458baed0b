package am_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/metrics"
)

// A local executor, which has no container, is of the executors' shape,
// profile 0, as a YARN one of that shape: the UI and the metrics'
// profile label are never empty.
func TestALocalExecutorHasTheDefaultProfile(t *testing.T) {
	store := history.NewStore(history.Limits{})
	d := startSession(t, amtest.WithObservation(am.Observation{Store: store, Metrics: metrics.New(), App: history.AppStarted{ID: "local-session"}}))
	d.Await(t, "the executor in the history", func(am.Turn) bool { return len(store.Executors(time.Now())) == 1 })
	if x := store.Executors(time.Now())[0]; x.Profile != "0" {
		t.Errorf("executor %s has profile %q, want 0", x.ID, x.Profile)
	}
	if body := get(t, d.TrackingPage(), "/metrics").Body.String(); !strings.Contains(body, `spindle_executors{profile="0",state="active"} 1`) {
		t.Errorf("the executor is not active in profile 0:\n%s", body)
	}
}
