package integration

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Local mode's UI: a local submit prints UI= as it starts, on a loopback
// port, and serves its job and a task's output while it runs; a local
// session prints UI= before SESSION=; once the application ended,
// spindle history serves the same from its event log, and --text says it.
func TestObserveLocalUIAndHistory(t *testing.T) {
	u := newSessionUser(t)
	spec := writeSpec(t, "name: local-ui\nstages:\n  - {name: s, tasks: 2, command: \"echo said-$SPINDLE_TASK_INDEX; sleep 4\"}\n")
	cmd, out := u.start("submit", "--master", "local[1]", "--conf", "spindle.executor.cores=2", spec)
	ui := waitForUI(t, "submit", out)
	var jobs []uiJob
	waitFor(t, 30*time.Second, "the job's 2 tasks running in the UI", func() bool {
		return getJSON(t, ui+"api/v1/jobs", &jobs) == 200 && len(jobs) == 1 && jobs[0].Running == 2
	})
	var executors []struct {
		ID string `json:"id"`
	}
	getJSON(t, ui+"api/v1/executors", &executors)
	if len(executors) != 1 {
		t.Fatalf("executors %+v, want 1", executors)
	}
	// Running is the launch sent: the task may not have written yet.
	waitFor(t, 30*time.Second, "task 1's stdout through the UI", func() bool {
		code, stdout := httpGet(t, http.DefaultClient, ui+"logs/"+executors[0].ID+"/job0-stage0-task1-attempt0.stdout")
		return code == 200 && stdout == "said-1\n"
	})
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job: %v\n%s", err, out.String())
	}
	id := regexp.MustCompile(`(?m)task logs: \S*/(local-\d+-[0-9a-f]+)$`).FindStringSubmatch(out.String())
	if id == nil {
		t.Fatalf("no application id in:\n%s", out.String())
	}

	// After the end: the history, served and as text.
	hist, histOut := u.start("history", id[1])
	served := waitForUI(t, "spindle history", histOut)
	jobs = nil
	if code := getJSON(t, served+"api/v1/jobs", &jobs); code != 200 || len(jobs) != 1 || jobs[0].State != "succeeded" || jobs[0].Succeeded != 2 {
		t.Errorf("spindle history's /api/v1/jobs: %d %+v", code, jobs)
	}
	if code, page := httpGet(t, http.DefaultClient, served+"jobs/0"); code != 200 || !strings.Contains(page, "Job 0: local-ui") || strings.Contains(page, "http-equiv") {
		t.Errorf("spindle history's job page: %d\n%s", code, page)
	}
	hist.Process.Kill()
	text, err := u.run("history", "--text", id[1])
	for _, want := range []string{id[1] + " local-ui (local[1]): succeeded", "job 0 local-ui in default: succeeded, 2/2 tasks", "stage 0 s: succeeded, 2/2 tasks"} {
		if !strings.Contains(text, want) {
			t.Errorf("spindle history --text: %v; no %q\n%s", err, want, text)
		}
	}

	// A local session prints its UI just before SESSION=, and serves it.
	sid, sui := u.startSessionUI("--master", "local[1]")
	if !strings.HasPrefix(sui, "http://127.0.0.1:") {
		t.Fatalf("session start printed UI=%q: want a loopback URL", sui)
	}
	var app struct {
		ID      string `json:"id"`
		Session bool   `json:"session"`
	}
	if code := getJSON(t, sui+"api/v1/session", &app); code != 200 || app.ID != sid || !app.Session {
		t.Errorf("the local session's /api/v1/session: %d %+v", code, app)
	}
}
