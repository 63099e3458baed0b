package history

import (
	"slices"
	"testing"
	"time"
)

// MaxApps keeps that many ended applications' logs, the most recently
// ended: exactly at the limit all stay, one past it the oldest goes.
func TestRetentionKeepsMaxAppsEndedLogs(t *testing.T) {
	r := Retention{MaxApps: 2}
	two := []LoggedApp{{ID: "local-2", Ended: at(20)}, {ID: "local-1", Ended: at(10)}}
	if got := r.Expired(two, at(30)); len(got) != 0 {
		t.Errorf("two ended at maxApps 2: %q removed, want none", got)
	}
	three := append(two, LoggedApp{ID: "local-3", Ended: at(5)})
	if got := r.Expired(three, at(30)); !slices.Equal(got, []string{"local-3"}) {
		t.Errorf("three ended at maxApps 2: %q removed, want the one that ended first, local-3", got)
	}
}

// MaxAge keeps a log for that long after its application ended: at
// exactly the age it stays, past it it goes.
func TestRetentionKeepsEndedLogsForMaxAge(t *testing.T) {
	r := Retention{MaxAge: time.Hour}
	apps := []LoggedApp{{ID: "a", Ended: at(0)}}
	if got := r.Expired(apps, at(0).Add(time.Hour)); len(got) != 0 {
		t.Errorf("ended exactly maxAge ago: %q removed, want kept", got)
	}
	if got := r.Expired(apps, at(0).Add(time.Hour+time.Millisecond)); !slices.Equal(got, []string{"a"}) {
		t.Errorf("ended just past maxAge: %q removed, want a", got)
	}
}

// A log that may be a running application's is neither counted nor
// removed, however old; zero limits remove nothing.
func TestRetentionLeavesRunningApplicationsLogs(t *testing.T) {
	apps := []LoggedApp{{ID: "running"}, {ID: "ended", Ended: at(0)}}
	got := Retention{MaxApps: 1, MaxAge: time.Second}.Expired(apps, at(3600))
	if !slices.Equal(got, []string{"ended"}) {
		t.Errorf("removed %q, want the ended one alone", got)
	}
	if got := (Retention{MaxApps: 1}).Expired(apps, at(3600)); len(got) != 0 {
		t.Errorf("one ended at maxApps 1 beside a running one: %q removed, want none", got)
	}
	if got := (Retention{}).Expired(apps, at(1e9)); len(got) != 0 {
		t.Errorf("no limits: %q removed", got)
	}
}
