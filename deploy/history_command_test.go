package deploy

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/staging"
)

// logLocalApp writes a local application's event log where spindle
// history looks for it, with events between its start and its end (none
// when end is zero).
func logLocalApp(t *testing.T, id, name string, start, end time.Time, succeeded bool, events ...history.Event) {
	t.Helper()
	dir, err := staging.LocalEventLogDir("", id)
	if err != nil {
		t.Fatal(err)
	}
	seg, err := staging.Local().Segments(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	w := history.NewWriter(seg, nil, log)
	w.Append(history.Event{Time: start, App: &history.AppStarted{ID: id, Name: name, User: "alice", Master: "local[1]"}})
	w.Append(events...)
	if !end.IsZero() {
		w.Append(history.Event{Time: end, AppEnded: &history.AppEnded{Succeeded: succeeded}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Run writes what is pending, then returns
	w.Run(ctx)
}

// runHistory runs spindle history with args, with no Hadoop
// configuration: local applications alone.
func runHistory(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	for _, name := range []string{"HADOOP_CONF_DIR", "YARN_CONF_DIR", "HADOOP_HOME", "SPINDLE_CONF_DIR"} {
		t.Setenv(name, "")
	}
	var out, errOut bytes.Buffer
	app := NewApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(append([]string{"spindle", "history"}, args...))
	return out.String(), errOut.String(), err
}

// spindle history with no id lists the applications whose logs are
// kept, the oldest first, with name, user, start, end and state; at
// spindle.eventLog.maxApps=1 it removes the older, saying so.
func TestHistoryWithNoIDListsApplications(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	now := time.Now().Truncate(time.Second)
	logLocalApp(t, "local-1-aaaaaa", "etl", now.Add(-2*time.Hour), now.Add(-time.Hour), true)
	logLocalApp(t, "local-2-bbbbbb", "train", now.Add(-30*time.Minute), now.Add(-20*time.Minute), false)
	out, errOut, err := runHistory(t)
	if err != nil {
		t.Fatalf("spindle history: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	at := func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }
	want := [][]string{
		{"APPLICATION", "NAME", "USER", "STARTED", "ENDED", "STATE"},
		{"local-1-aaaaaa", "etl", "alice", at(now.Add(-2 * time.Hour)), at(now.Add(-time.Hour)), "succeeded"},
		{"local-2-bbbbbb", "train", "alice", at(now.Add(-30 * time.Minute)), at(now.Add(-20 * time.Minute)), "failed"},
	}
	if len(lines) != len(want) {
		t.Fatalf("spindle history printed:\n%s\nwant %d lines", out, len(want))
	}
	for i, w := range want {
		if got := strings.Join(strings.Fields(lines[i]), " "); got != strings.Join(w, " ") {
			t.Errorf("line %d: %q, want %q", i, got, strings.Join(w, " "))
		}
	}

	out, errOut, err = runHistory(t, "--conf", "spindle.eventLog.maxApps=1")
	if err != nil || strings.Contains(out, "local-1-aaaaaa") || !strings.Contains(out, "local-2-bbbbbb") ||
		!strings.Contains(errOut, "removed the event logs of local-1-aaaaaa") {
		t.Errorf("at maxApps 1: %v\n%s%s\nwant local-1-aaaaaa removed, saying so", err, out, errOut)
	}
	dir, _ := staging.LocalEventLogDir("", "local-1-aaaaaa")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("local-1-aaaaaa's log: %v; want it removed", err)
	}
}

// A log that does not read is listed as such, and kept; one without an
// end whose driver is gone (it holds no running mark) is incomplete.
func TestHistoryListsALogThatDoesNotRead(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	logLocalApp(t, "local-5-eeeeee", "died", time.Now().Add(-time.Minute), time.Time{}, false)
	dir, _ := staging.LocalEventLogDir("", "local-3-cccccc")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "events-000001.jsonl"), []byte("not json\n"), 0o600)
	out, errOut, err := runHistory(t, "--conf", "spindle.eventLog.maxApps=1", "--conf", "spindle.eventLog.maxAge=1s")
	if err != nil || !strings.Contains(out, "unreadable") || !strings.Contains(errOut, "local-3-cccccc: its event log does not read") {
		t.Errorf("spindle history: %v\n%s%s", err, out, errOut)
	}
	if f := strings.Fields(out[strings.Index(out, "local-5-eeeeee"):]); len(f) < 7 || f[6] != "incomplete" {
		t.Errorf("spindle history listed:\n%s\nwant local-5-eeeeee incomplete, ended when last written", out)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the unreadable log: %v; want it kept", err)
	}
}

// spindle history serves a local application's task output from the
// files its executors left, as its live UI did.
func TestHistoryServesALocalApplicationsTaskFiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	id := "local-4-dddddd"
	now := time.Now()
	logLocalApp(t, id, "fails", now.Add(-time.Minute), now, false,
		history.Event{Time: now.Add(-time.Minute), ExecutorAdded: &history.ExecutorAdded{ID: "exec-1", Host: "localhost"}})
	files := filepath.Join(os.Getenv("TMPDIR"), "spindle-"+strconv.Itoa(os.Geteuid()), id, "exec-1")
	if err := os.MkdirAll(files, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(files, "job0-stage0-task0-attempt0.stdout"), []byte("boom\n"), 0o600)

	ui := serveHistoryOf(t, id)
	client := &http.Client{Jar: newJar(t)}
	if code, _ := httpGet(t, client, ui.String()); code != 200 {
		t.Fatalf("the printed UI %s: %d", ui, code)
	}
	// A script keeps the token (a browser would have its cookie).
	ui.Path = "/logs/exec-1/job0-stage0-task0-attempt0.stdout"
	if code, body := httpGet(t, client, ui.String()); code != 200 || body != "boom\n" {
		t.Errorf("the task's stdout from spindle history: %d %q", code, body)
	}
}

// serveHistoryOf runs spindle history id until the test ends and
// returns the UI= URL it printed.
func serveHistoryOf(t *testing.T, id string) *url.URL {
	t.Helper()
	for _, name := range []string{"HADOOP_CONF_DIR", "YARN_CONF_DIR", "HADOOP_HOME", "SPINDLE_CONF_DIR"} {
		t.Setenv(name, "")
	}
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	app := NewApp()
	app.Writer, app.ErrWriter = w, io.Discard
	go func() { ended <- app.RunContext(ctx, []string{"spindle", "history", id}); w.Close() }()
	t.Cleanup(func() {
		cancel()
		go io.Copy(io.Discard, r)
		<-ended
	})
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "UI="); ok {
			parsed, err := url.Parse(u)
			if err != nil {
				t.Fatal(err)
			}
			return parsed
		}
	}
	t.Fatalf("spindle history %s printed no UI=: %v", id, <-ended)
	return nil
}

func newJar(t *testing.T) *cookiejar.Jar {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return jar
}

func httpGet(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
