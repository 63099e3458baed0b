package integration

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/browser"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A session's web UI, as its users see it: through the RM's web proxy,
// in a real browser, while two jobs in two pools run; the same counts
// as its REST API; nothing reached around the proxy or changed without
// proof; and, once the session has ended, its history from the event
// log alone.
func TestObserveSessionUIThroughTheProxy(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	pools := filepath.Join(t.TempDir(), "pools.xml")
	if err := os.WriteFile(pools, []byte(`<allocations><pool name="prod"><weight>2</weight><schedulingMode>FAIR</schedulingMode></pool>`+
		`<pool name="adhoc"><schedulingMode>FIFO</schedulingMode></pool></allocations>`), 0o644); err != nil {
		t.Fatal(err)
	}
	id, ui := u.startSessionUI("--master", "yarn", "--name", "observed", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.memory=512m", "--conf", "spindle.scheduler.mode=FAIR", "--conf", "spindle.scheduler.allocation.file="+pools)
	if !strings.Contains(ui, "/proxy/"+id) {
		t.Fatalf("session start printed UI=%q: want the tracking URL through the RM's proxy", ui)
	}
	base := strings.TrimSuffix(ui, "/")

	// etl (prod): two quick tasks, then two that sleep; train (adhoc):
	// two that sleep. One executor of 2 cores runs 2 of the 4 sleepers.
	etl := writeSpec(t, "name: etl\nstages:\n  - {name: quick, tasks: 2, command: \"echo quick-output\"}\n  - {name: slow, tasks: 2, after: [quick], command: \"sleep 120\"}\n")
	train := writeSpec(t, "name: train\nstages:\n  - {name: fit, tasks: 2, command: \"sleep 120\"}\n")
	u.start("submit", "--session", id, "--pool", "prod", etl)
	var jobs []uiJob
	waitFor(t, time.Minute, "job etl in the REST API", func() bool { return getJSON(t, base+"/api/v1/jobs", &jobs) == 200 && len(jobs) == 1 })
	u.start("submit", "--session", id, "--pool", "adhoc", train)
	byName := map[string]uiJob{}
	waitFor(t, 2*time.Minute, "both jobs running, 2 tasks between them, etl's quick stage done", func() bool {
		jobs = nil
		getJSON(t, base+"/api/v1/jobs", &jobs)
		running := 0
		for _, j := range jobs {
			byName[j.Name] = j
			running += j.Running
		}
		return len(jobs) == 2 && running == 2 && byName["etl"].Succeeded == 2
	})

	b := browser.Start(t)
	b.Open(ui)
	b.PassProxyWarning()
	b.WaitText("train", time.Minute)
	html := b.HTML()
	for name, j := range byName {
		row := regexp.MustCompile(fmt.Sprintf(`(?s)<tr class="job" data-job="%d" data-state="running">.*?<td>%s</td><td>%s</td>.*?<span class="done">%d/%d</span>.*?<td class="n">%d</td>`,
			j.ID, name, j.Pool, j.Succeeded, j.Tasks, j.Running))
		if !row.MatchString(html) {
			t.Errorf("the session page has no row for %s with the REST API's counts %+v:\n%s", name, j, b.Text())
		}
	}
	if !strings.Contains(html, `data-series="executors-held"`) || !strings.Contains(html, `data-series="waiting-`) {
		t.Error("the session page has no timeline of executors and waiting tasks")
	}
	if !strings.HasPrefix(b.URL(), base) {
		t.Errorf("the browser is at %s, not behind the proxy", b.URL())
	}
	b.Screenshot(browser.Artifact(t, "ui-session.png"))

	// The job page, by its link: etl's stages.
	b.Click(fmt.Sprint(byName["etl"].ID))
	text := b.WaitText("Job "+fmt.Sprint(byName["etl"].ID)+": etl", 30*time.Second)
	for _, want := range []*regexp.Regexp{regexp.MustCompile(`quick\s+succeeded\s+2/2`), regexp.MustCompile(`slow\s+0\s+running\s+0/2`)} {
		if !want.MatchString(text) {
			t.Errorf("the job page has no %s:\n%s", want, text)
		}
	}
	b.Screenshot(browser.Artifact(t, "ui-job.png"))

	// The quick stage's tasks, by the stage's link: each links its
	// stdout on its NodeManager, which shows what the task printed.
	b.Click("0") // quick: etl, submitted first, has the session's first stage
	html = b.HTML()
	link := regexp.MustCompile(`<a href="(http://[^"]+/node/containerlogs/container_[^"]+/job\d+-stage0-task0-attempt0\.stdout)">stdout</a>`).FindStringSubmatch(html)
	if link == nil {
		t.Fatalf("the stage page links no task's stdout on its NodeManager:\n%s", html)
	}
	resp, err := http.Get(link[1])
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(stdout), "quick-output") {
		t.Errorf("the task's stdout at %s: %d\n%s", link[1], resp.StatusCode, stdout)
	}
	b.Screenshot(browser.Artifact(t, "ui-stage.png"))

	b.Click("Pools")
	html = b.HTML()
	for _, pool := range []string{"prod", "adhoc"} {
		if !regexp.MustCompile(`<tr class="pool" data-pool="` + pool + `">.*<td class="n jobs">1</td>`).MatchString(html) {
			t.Errorf("the pools page has no %s with its one job:\n%s", pool, b.Text())
		}
	}
	b.Screenshot(browser.Artifact(t, "ui-pools.png"))

	b.Click("Executors")
	html = b.HTML()
	if n := len(regexp.MustCompile(`<tr class="executor" data-executor="container_\S+" data-state="active">`).FindAllString(html, -1)); n != 1 {
		t.Errorf("the executors page lists %d active executors, want 1:\n%s", n, b.Text())
	}
	b.Screenshot(browser.Artifact(t, "ui-executors.png"))

	// The AM's settings came in the file the submitter wrote: the
	// environment page names the submitter's sources, not that file.
	b.Click("Environment")
	text = b.WaitText("spindle.executor.cores", 30*time.Second)
	for _, want := range []string{`spindle\.executor\.cores\s+2\s+--conf`, `spindle\.app\.name\s+observed\s+--name`, `spindle\.ui\.retainedJobs\s+1000\s+default`} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("the environment page has no %s:\n%s", want, text)
		}
	}
	b.Close()

	// spindle jobs says why the waiting tasks wait, as the UI does.
	if out, err := u.run("jobs", id); err != nil || !regexp.MustCompile(`waiting: 0/1 executors can take a task`).MatchString(out) {
		t.Errorf("spindle jobs: %v; no reason why tasks wait\n%s", err, out)
	}

	// Around the proxy, a page is sent to the proxy, and a POST is not
	// served either; through the proxy, nothing changes state.
	m := regexp.MustCompile(`tracking_url="?(http://[^ "]+)`).FindStringSubmatch(amLog(t, c, id))
	if m == nil {
		t.Fatal("the AM's log names no tracking URL")
	}
	// The proxy is on this host: 127.0.0.2 is an address that is not it.
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 10 * time.Second}
	around := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, method := range []string{"GET", "POST"} {
		req, _ := http.NewRequest(method, strings.TrimSuffix(m[1], "/")+"/api/v1/jobs", nil)
		resp, err := around.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://"+c.RMWebAddress+"/proxy/"+id+"/api/v1/jobs" {
			t.Errorf("%s %s around the proxy: %d to %q, want a redirect to the proxy", method, m[1], resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp, err = http.Post(fmt.Sprintf("%s/api/v1/jobs/%d", base, byName["train"].ID), "application/json", strings.NewReader(`{"state":"cancelled"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK || resp.StatusCode/100 == 3 {
		t.Errorf("a POST through the proxy: %d, want it refused", resp.StatusCode)
	}

	// Once the session has ended, its history from the event log alone.
	if out, err := u.run("session", "stop", id); err != nil {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	out, err := u.run("history", "--text", id)
	for _, want := range []string{
		"jobs 2: 0 succeeded, 0 failed, 2 cancelled, 0 running",
		fmt.Sprintf("job %d etl in prod: cancelled, 2/4 tasks", byName["etl"].ID),
		"quick: succeeded, 2/2 tasks", "slow: cancelled, 0/2 tasks",
		fmt.Sprintf("job %d train in adhoc: cancelled, 0/2 tasks", byName["train"].ID),
		"executors 1\n  container_",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("spindle history --text: %v; no %q\n%s", err, want, out)
		}
	}
}
