package appmaster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// logYARNApp writes a YARN application's event log under root, ended
// at end unless it is zero.
func logYARNApp(t *testing.T, root, id string, end time.Time) {
	t.Helper()
	seg, err := staging.Local().Segments(filepath.Join(root, id))
	if err != nil {
		t.Fatal(err)
	}
	w := history.NewWriter(seg, nil, quietLog())
	w.Append(history.Event{Time: end.Add(-time.Minute), App: &history.AppStarted{ID: id, Master: "yarn"}})
	if !end.IsZero() {
		w.Append(history.Event{Time: end, AppEnded: &history.AppEnded{Succeeded: true}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Run writes what is pending, then returns
	w.Run(ctx)
}

// An AM starting cleans the event log directory of the ended
// applications beyond spindle.eventLog.maxApps, the oldest first; it
// cannot ask the RM whether one without an end runs, and leaves it.
func TestTheAMCleansEndedApplicationsLogs(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	logYARNApp(t, root, "application_1_0001", now.Add(-2*time.Hour))
	logYARNApp(t, root, "application_1_0002", now.Add(-time.Hour))
	logYARNApp(t, root, "application_1_0003", time.Time{})
	hconf := hadoopconf.New(hadoopconf.Env{})
	hconf.Set("fs.defaultFS", "file:///")
	c := container{hconf: hconf, user: "alice"}
	if err := cleanEventLogDir(context.Background(), c, root, history.Retention{MaxApps: 1}); err != nil {
		t.Fatal(err)
	}
	for id, kept := range map[string]bool{"application_1_0001": false, "application_1_0002": true, "application_1_0003": true} {
		if _, err := os.Stat(filepath.Join(root, id)); (err == nil) != kept {
			t.Errorf("%s: %v; want kept %v", id, err, kept)
		}
	}
}
