package localmode

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/staging"
)

// logApp writes a local application's event log under root, ended at
// end unless it is zero.
func logApp(t *testing.T, root, id string, end time.Time) {
	t.Helper()
	seg, err := staging.Local().Segments(filepath.Join(root, id))
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	w := history.NewWriter(seg, nil, log)
	w.Append(history.Event{Time: end.Add(-time.Minute), App: &history.AppStarted{ID: id, Master: "local[1]"}})
	if !end.IsZero() {
		w.Append(history.Event{Time: end, AppEnded: &history.AppEnded{Succeeded: true}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Run writes what is pending, then returns
	w.Run(ctx)
}

// A log without an end whose driver holds its running mark is never
// removed; once the mark is let go it is a dead driver's, ended when it
// was last written, and counts against maxApps as the ended do.
func TestCleaningLeavesARunningLocalApplicationsLog(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	now := time.Now()
	logApp(t, root, "local-1-aa", now.Add(-2*time.Hour))
	logApp(t, root, "local-2-bb", now.Add(-time.Hour))
	logApp(t, root, "local-3-cc", time.Time{})
	mark, err := lockRunning(filepath.Join(root, "local-3-cc"))
	if err != nil {
		t.Fatal(err)
	}
	kept, removed, err := CleanEventLogs(ctx, root, history.Retention{MaxApps: 1}, now)
	if err != nil || !slices.Equal(removed, []string{"local-1-aa"}) || len(kept) != 2 {
		t.Fatalf("with local-3-cc running, maxApps 1: removed %q, kept %d, %v; want local-1-aa alone removed", removed, len(kept), err)
	}
	mark.Close()
	_, removed, err = CleanEventLogs(ctx, root, history.Retention{MaxApps: 1}, now.Add(time.Minute))
	if err != nil || !slices.Equal(removed, []string{"local-2-bb"}) {
		t.Fatalf("with local-3-cc's driver gone, maxApps 1: removed %q, %v; want local-2-bb, older than local-3-cc's last write", removed, err)
	}
	if _, err := os.Stat(filepath.Join(root, "local-3-cc")); err != nil {
		t.Errorf("local-3-cc's log: %v", err)
	}
}

// A driver marks its own log running before it cleans the others',
// which it does beside the application, done by release.
func TestADriverMarksItsLogRunningAndCleans(t *testing.T) {
	root := t.TempDir()
	logApp(t, root, "local-1-aa", time.Now().Add(-2*time.Hour))
	logApp(t, root, "local-2-bb", time.Now().Add(-time.Hour))
	d := &EventLogDir{Root: root, Retention: history.Retention{MaxApps: 1}}
	log := logrus.New()
	log.SetOutput(io.Discard)
	release := d.open(context.Background(), "local-3-cc", log)
	if !logRunning(filepath.Join(root, "local-3-cc")) {
		t.Error("an open application's log is not marked running")
	}
	release() // it waits for the cleaning, done beside the application
	if _, err := os.Stat(filepath.Join(root, "local-1-aa")); !os.IsNotExist(err) {
		t.Errorf("local-1-aa, beyond maxApps 1: %v; want it removed", err)
	}
	if logRunning(filepath.Join(root, "local-3-cc")) {
		t.Error("a released log is still marked running")
	}
}

// A driver cleans at most once every CleanEvery: due on a directory
// never cleaned, not again until exactly CleanEvery later.
func TestADriverCleansAtMostOnceAnHour(t *testing.T) {
	root := t.TempDir()
	now := time.Now().Truncate(time.Second)
	if !cleaningDue(root, now) {
		t.Fatal("a directory never cleaned: not due")
	}
	if cleaningDue(root, now.Add(CleanEvery-time.Second)) {
		t.Errorf("due again %v after the last cleaning, before CleanEvery (%v)", CleanEvery-time.Second, CleanEvery)
	}
	if !cleaningDue(root, now.Add(CleanEvery)) {
		t.Errorf("not due CleanEvery (%v) after the last cleaning", CleanEvery)
	}

	// So a second driver within the hour leaves an expired log for later.
	logApp(t, root, "local-1-aa", time.Now().Add(-2*time.Hour))
	logApp(t, root, "local-2-bb", time.Now().Add(-time.Hour))
	log := logrus.New()
	log.SetOutput(io.Discard)
	(&EventLogDir{Root: root, Retention: history.Retention{MaxApps: 1}}).open(context.Background(), "local-3-cc", log)()
	if _, err := os.Stat(filepath.Join(root, "local-1-aa")); err != nil {
		t.Errorf("local-1-aa, cleaned by a driver within the hour: %v; want it left for later", err)
	}
}
