package integration

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os/user"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// localAppID is the local application id a submit printed (in its task
// logs' directory).
func localAppID(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)task logs: \S*/(local-\d+-[0-9a-f]+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no application id in:\n%s", out)
	}
	return m[1]
}

// historyRow is an application's row in spindle history's list, its
// fields, or nil.
func historyRow(out, id string) []string {
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == id {
			return f
		}
	}
	return nil
}

// spindle history with no id lists two finished local applications with
// their names, user, times and states; at spindle.eventLog.maxApps=1 the
// older one's log is removed.
func TestHistoryListsAndCleansLocalApplications(t *testing.T) {
	u := newSessionUser(t)
	var ids []string
	for _, name := range []string{"first", "second"} {
		spec := writeSpec(t, "name: "+name+"\nstages:\n  - {name: s, tasks: 1, command: \"true\"}\n")
		out, err := u.run("submit", "--master", "local[1]", spec)
		if err != nil {
			t.Fatalf("submit %s: %v\n%s", name, err, out)
		}
		ids = append(ids, localAppID(t, out))
	}
	out, err := u.run("history")
	if err != nil {
		t.Fatalf("spindle history: %v\n%s", err, out)
	}
	first, second := historyRow(out, ids[0]), historyRow(out, ids[1])
	// APPLICATION NAME USER STARTED (date, time) ENDED (date, time) STATE
	if len(first) != 8 || first[1] != "first" || first[7] != "succeeded" || len(second) != 8 || second[1] != "second" || second[7] != "succeeded" {
		t.Fatalf("spindle history listed:\n%s\nwant %s (first) and %s (second), both succeeded", out, ids[0], ids[1])
	}
	if me, err := user.Current(); err != nil || first[2] != me.Username {
		t.Errorf("spindle history's user %q, want %v (%v)", first[2], me, err)
	}
	if strings.Index(out, ids[0]) > strings.Index(out, ids[1]) {
		t.Errorf("spindle history listed:\n%s\nwant the older first", out)
	}

	out, err = u.run("history", "--conf", "spindle.eventLog.maxApps=1")
	if err != nil || historyRow(out, ids[0]) != nil || historyRow(out, ids[1]) == nil || !strings.Contains(out, "removed the event logs of "+ids[0]) {
		t.Fatalf("spindle history at maxApps 1: %v\n%s\nwant %s removed, saying so, and %s listed", err, out, ids[0], ids[1])
	}
	if out, _ := u.run("history", "--text", ids[0]); !strings.Contains(out, "no segments") {
		t.Errorf("the removed application's history:\n%s\nwant its log gone", out)
	}
}

// A local job whose task fails prints how to reopen its UI; spindle
// history then serves it, and the failed task's stdout through the stage
// page's link, to its owner (the token it printed).
func TestAFailedLocalJobsHistoryServesItsTaskOutput(t *testing.T) {
	u := newSessionUser(t)
	spec := writeSpec(t, "name: fails\nstages:\n  - {name: s, tasks: 1, command: \"echo went-wrong-$SPINDLE_TASK_INDEX; exit 3\"}\n")
	out, err := u.run("submit", "--master", "local[1]", "--conf", "spindle.task.maxFailures=1", spec)
	id := localAppID(t, out)
	if err == nil || !strings.Contains(out, "spindle history "+id+"\n") {
		t.Fatalf("the failed job: %v\n%s\nwant it failed, printing spindle history %s", err, out, id)
	}

	_, histOut := u.start("history", id)
	ui := waitForUI(t, "spindle history", histOut)
	client := &http.Client{}
	if code, _ := httpGet(t, client, ui); code != 200 {
		t.Fatalf("the UI %s printed: %d", ui, code)
	}
	base, err := url.Parse(ui)
	if err != nil {
		t.Fatal(err)
	}
	code, page := httpGet(t, client, base.ResolveReference(&url.URL{Path: "/stages/0"}).String())
	link := regexp.MustCompile(`href="([^"]*job0-stage0-task0-attempt0\.stdout)"`).FindStringSubmatch(page)
	if code != 200 || link == nil {
		t.Fatalf("spindle history's stage page: %d, no link to the task's stdout\n%s", code, page)
	}
	ref, err := url.Parse(link[1])
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout := httpGet(t, client, base.ResolveReference(ref).String()); code != 200 || stdout != "went-wrong-0\n" {
		t.Errorf("the failed task's stdout from spindle history: %d %q", code, stdout)
	}
}

// On YARN spindle history lists the event log directory on fs.defaultFS
// too, with the RM's applications in it, and cleans it: at
// spindle.eventLog.maxApps=1 the application that ended first goes.
func TestHistoryListsAndCleansYARNApplications(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	// A directory of the test's own: other tests' logs are not its to clean.
	dir := fmt.Sprintf("/user/%s/.spindle/events-%d", userName(t), time.Now().UnixNano())
	logDir := "spindle.eventLog.dir=" + dir
	spec := writeSpec(t, "name: listed\nstages:\n  - {name: s, tasks: 1, command: \"true\"}\n")
	out, err := u.run("submit", "--master", "yarn", "--conf", logDir, "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", spec)
	m := regexp.MustCompile(`application_\d+_\d+`).FindString(out)
	if err != nil || m == "" {
		t.Fatalf("submit --master yarn: %v\n%s", err, out)
	}
	// An application that ended an hour before, as its AM would have logged it.
	conf, _ := clientConfig(t, c)
	st, err := staging.New(conf, userName(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	old := "application_1_0001"
	seg, err := st.Segments(dir + "/" + old)
	if err != nil {
		t.Fatal(err)
	}
	w := history.NewWriter(seg, nil, logrus.New())
	ended := time.Now().Add(-time.Hour)
	w.Append(history.Event{Time: ended.Add(-time.Minute), App: &history.AppStarted{ID: old, Name: "older", User: userName(t), Master: "yarn"}},
		history.Event{Time: ended, AppEnded: &history.AppEnded{Succeeded: true}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Run writes what is pending, then returns
	w.Run(ctx)

	out, err = u.run("history", "--conf", logDir)
	if row, older := historyRow(out, m), historyRow(out, old); err != nil || len(row) != 8 || row[1] != "listed" || row[7] != "succeeded" || older == nil {
		t.Fatalf("spindle history: %v\n%s\nwant %s (listed, succeeded) and %s", err, out, m, old)
	}
	out, err = u.run("history", "--conf", logDir, "--conf", "spindle.eventLog.maxApps=1")
	if err != nil || historyRow(out, old) != nil || historyRow(out, m) == nil || !strings.Contains(out, "removed the event logs of "+old) {
		t.Errorf("spindle history at maxApps 1: %v\n%s\nwant %s removed, saying so, and %s listed", err, out, old, m)
	}
}
