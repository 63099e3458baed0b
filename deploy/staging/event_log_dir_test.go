package staging

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/history"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// logApp writes an application's event log under root: it started at
// start and, unless end is zero, ended then.
func logApp(t *testing.T, root, id string, start, end time.Time) {
	t.Helper()
	st := &Stager{fs: localFS{}}
	seg, err := st.Segments(filepath.Join(root, id))
	if err != nil {
		t.Fatal(err)
	}
	log, _ := logtest.NewNullLogger()
	w := history.NewWriter(seg, nil, log)
	w.Append(history.Event{Time: start, App: &history.AppStarted{ID: id, Name: "job-" + id, User: "alice", Master: "local[1]"}})
	if !end.IsZero() {
		w.Append(history.Event{Time: end, AppEnded: &history.AppEnded{Succeeded: true}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Run writes what is pending, then returns
	w.Run(ctx)
}

// A directory of event logs lists each application's, the oldest
// first, and cleans by its retention: the oldest ended beyond maxApps
// go; a running application's log, a log that does not read and what is
// not an application's stay.
func TestEventLogsListAndClean(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	logApp(t, root, "local-1-aa", t0, t0.Add(time.Minute))
	logApp(t, root, "local-2-bb", t0.Add(time.Hour), t0.Add(2*time.Hour))
	logApp(t, root, "application_3_0001", t0.Add(3*time.Hour), time.Time{}) // running
	logApp(t, root, "local-4-dd", t0.Add(4*time.Hour), time.Time{})         // its driver died
	os.MkdirAll(filepath.Join(root, "local-5-ee"), 0o700)                   // nothing written yet
	os.MkdirAll(filepath.Join(root, "notes"), 0o700)
	dir, err := (&Stager{fs: localFS{}}).EventLogs(root)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := dir.Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range apps {
		ids = append(ids, a.ID)
	}
	if want := []string{"local-5-ee", "local-1-aa", "local-2-bb", "application_3_0001", "local-4-dd"}; !slices.Equal(ids, want) {
		t.Fatalf("listed %q, want %q", ids, want)
	}
	if s := apps[2].Summary; s.Name != "job-local-2-bb" || s.User != "alice" || s.State != history.JobSucceeded || !s.Ended.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("local-2-bb's summary %+v", s)
	}
	if apps[0].Err == nil || apps[3].Summary.State != history.JobRunning || apps[3].LastWrite.IsZero() {
		t.Errorf("an empty log's error %v; the running one %+v", apps[0].Err, apps[3])
	}
	running := func(id string) bool { return id == "application_3_0001" }
	// At maxApps 3: two ended and one whose driver died are kept.
	kept, removed, err := dir.Clean(ctx, apps, history.Retention{MaxApps: 3}, t0.Add(5*time.Hour), running)
	if err != nil || len(removed) != 0 || len(kept) != len(apps) {
		t.Fatalf("at maxApps 3 removed %q, %v; want none", removed, err)
	}
	kept, removed, err = dir.Clean(ctx, apps, history.Retention{MaxApps: 2}, t0.Add(5*time.Hour), running)
	if err != nil || !slices.Equal(removed, []string{"local-1-aa"}) || len(kept) != len(apps)-1 || kept[0].ID != "local-5-ee" || kept[1].ID != "local-2-bb" {
		t.Fatalf("at maxApps 2 removed %q, %v; want the one that ended first", removed, err)
	}
	for _, name := range []string{"local-2-bb", "application_3_0001", "local-4-dd", "local-5-ee", "notes"} {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			t.Errorf("%s: %v; want it kept", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "local-1-aa")); !os.IsNotExist(err) {
		t.Errorf("local-1-aa's log is still there (%v)", err)
	}
}
