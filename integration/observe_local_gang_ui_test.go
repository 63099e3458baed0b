package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/browser"
)

// gangUISpec is a gang of 4 ranks, each with a GPU and an FPGA, whose
// rank 2 exits 1 on its first run (the others are stopped); the second
// run's ranks wait for release to appear.
func gangUISpec(t *testing.T, release string) string {
	return writeSpec(t, `name: gang-ui
stages:
  - name: train
    gang: true
    tasks: 4
    maxAttempts: 2
    resources: {cpus: 1, gpus: 1}
    command: |
      echo "rank $RANK attempt $SPINDLE_ATTEMPT fpga $SPINDLE_FPGA_ADDRESSES"
      if [ "$SPINDLE_ATTEMPT" = 0 ]; then
        if [ "$RANK" = 2 ]; then echo "rank 2 fails on purpose" >&2; exit 1; fi
        exec sleep 120
      fi
      while [ ! -e `+release+` ]; do sleep 0.1; done
`)
}

// A local gang job, seen in the headless browser from the URL the
// submitter printed: the gang stage shows ranks 0..3 with their GPUs and
// FPGAs, MASTER_ADDR:MASTER_PORT and one restart, why (rank 2 exited 1),
// and the failed rank's output; the executors show their FPGAs; the
// environment page shows a --conf value and not a secret, nor does its
// REST resource or the event log; `spindle history` shows the same.
func TestObserveLocalGangFPGAAndEnvironment(t *testing.T) {
	u := newSessionUser(t)
	release := filepath.Join(t.TempDir(), "release")
	args := append(slices.Clone(localArgs), "--conf", "spindle.worker.resource.fpga.addresses=f0,f1,f2,f3",
		"--conf", "spark.executor.resource.fpga.amount=2", "--conf", "spindle.task.resource.fpga.amount=1",
		"--conf", "spindle.app.name=gang-ui-env", "--conf", "spindle.executorEnv.DB_PASSWORD=hunter2",
		"--conf", "spindle.executorEnv.NOTE=hf_s3cr3tT0kenValue42", gangUISpec(t, release))
	cmd, out := u.start(args...)
	base := waitForUI(t, "submit", out)

	b := browser.Start(t)
	b.Open(printedUI(t, base))
	b.WaitText("gang-ui", 30*time.Second)
	b.Click("0") // the job
	b.WaitText("Job 0: gang-ui", 30*time.Second)
	b.Click("0") // its stage
	text := b.WaitText("rank 2 exited 1", time.Minute)
	checkGangPage(t, b, text, "while it runs", true)
	b.Screenshot(browser.Artifact(t, "ui-gang-stage.png"))

	// The failed rank's output, by the restart's link.
	b.Click("stdout")
	if got := b.Text(); !strings.Contains(b.URL(), "job0-stage0-task2-attempt0.stdout") || !regexp.MustCompile(`^rank 2 attempt 0 fpga f\d`).MatchString(got) {
		t.Errorf("the restart's stdout link led to %s:\n%s", b.URL(), got)
	}

	b.Open(base + "executors")
	checkExecutorsFPGAs(t, b)
	b.Open(base + "stages/0")
	b.Click("Environment")
	checkEnvironment(t, b, "the environment page")
	b.Screenshot(browser.Artifact(t, "ui-environment.png"))
	b.Open(base + "api/v1/environment")
	checkEnvironment(t, b, "/api/v1/environment")
	b.Open(base + "api/v1/stages/0")
	if api := b.Text(); !strings.Contains(api, `"reason":"rank 2 exited 1"`) || !regexp.MustCompile(`"master":"[^"]+:\d+"`).MatchString(api) {
		t.Errorf("/api/v1/stages/0 has no gang with its restart and master:\n%s", api)
	}

	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job: %v\n%s", err, out.String())
	}
	b.Close()
	id := regexp.MustCompile(`(?m)task logs: \S*/(local-\d+-[0-9a-f]+)$`).FindStringSubmatch(out.String())
	if id == nil {
		t.Fatalf("no application id in:\n%s", out.String())
	}
	checkEventLogHasNo(t, u, id[1], "hunter2", "hf_s3cr3tT0kenValue42")
	if text, err := u.run("history", "--text", id[1]); err != nil || !regexp.MustCompile(`\n      gang: 2 runs at \S+:\d+, 1 restart: rank 2 exited 1\n`).MatchString(text) {
		t.Errorf("spindle history --text: %v; no gang line with its restart\n%s", err, text)
	}

	// After the end, from the event log.
	_, histOut := u.start("history", id[1])
	served := waitForUI(t, "spindle history", histOut)
	hb := browser.Start(t)
	hb.Open(printedUI(t, served))
	hb.Open(served + "stages/0")
	checkGangPage(t, hb, hb.Text(), "in spindle history", true)
	hb.Click("Executors")
	checkExecutorsFPGAs(t, hb)
	hb.Click("Environment")
	checkEnvironment(t, hb, "spindle history's environment page")
}

// checkGangPage checks a gang stage's page: ranks 0..3 each with a GPU
// and an FPGA, where they meet, and one restart with its reason, linking
// the failed rank's output where the UI serves task files.
func checkGangPage(t *testing.T, b *browser.Browser, text, when string, output bool) {
	t.Helper()
	html := b.HTML()
	var ranks []string
	for _, m := range regexp.MustCompile(`<tr class="gang-rank"><td class="n">(\d+)</td>.*?<td>(\d)<div class="accels">fpga (f\d)</div></td></tr>`).FindAllStringSubmatch(html, -1) {
		ranks = append(ranks, m[1])
	}
	if strings.Join(ranks, ",") != "0,1,2,3" {
		t.Errorf("%s: the gang's ranks with a GPU and an FPGA each: %v, want 0..3:\n%s", when, ranks, text)
	}
	if !regexp.MustCompile(`MASTER_ADDR:MASTER_PORT \S+:\d+`).MatchString(text) || !strings.Contains(text, "2 runs") || !strings.Contains(text, "1 restart") {
		t.Errorf("%s: the gang section has no MASTER_ADDR:MASTER_PORT, 2 runs and 1 restart:\n%s", when, text)
	}
	row := `(?s)<tr class="gang-restart"><td class="n">0</td>.*?<td>rank 2 exited 1</td><td>`
	if output {
		row += ` <a href="[^"]*/job0-stage0-task2-attempt0\.stdout">stdout</a>`
	}
	if !regexp.MustCompile(row).MatchString(html) {
		t.Errorf("%s: no restart row for rank 2's exit linking its output:\n%s", when, html)
	}
}

// checkExecutorsFPGAs checks that the executors page shows each
// executor's two FPGAs.
func checkExecutorsFPGAs(t *testing.T, b *browser.Browser) {
	t.Helper()
	text := b.WaitText("Executors", 30*time.Second)
	if !strings.Contains(text, "fpga f0,f1") || !strings.Contains(text, "fpga f2,f3") {
		t.Errorf("the executors page shows no FPGAs f0,f1 and f2,f3:\n%s", text)
	}
}

// checkEnvironment checks that the page shown has the --conf value with
// its source, the secret's key but never the secret or the token.
func checkEnvironment(t *testing.T, b *browser.Browser, what string) {
	t.Helper()
	text, html := b.Text(), b.HTML()
	if !regexp.MustCompile(`spindle\.app\.name"?\W+(value"?:\W*)?"?gang-ui-env"?\W+(source"?:\W*)?"?--conf`).MatchString(text) {
		t.Errorf("%s shows no spindle.app.name=gang-ui-env from --conf:\n%s", what, text)
	}
	if !strings.Contains(text, "spindle.executorEnv.DB_PASSWORD") || !strings.Contains(text, "redacted") {
		t.Errorf("%s does not show the secret's key, redacted:\n%s", what, text)
	}
	for _, secret := range []string{"hunter2", "hf_s3cr3tT0kenValue42"} {
		if strings.Contains(html, secret) {
			t.Errorf("%s shows the secret %q", what, secret)
		}
	}
}

// checkEventLogHasNo checks that application id's event log holds none
// of secrets (and is there, with its gang).
func checkEventLogHasNo(t *testing.T, u *sessionUser, id string, secrets ...string) {
	t.Helper()
	var state string
	for _, kv := range u.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	dir := filepath.Join(state, "spindle", "events", id)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	if !strings.Contains(all.String(), `"gangStarted"`) || !strings.Contains(all.String(), `"environment"`) {
		t.Fatalf("the event log in %s has no gang or environment (%d files)", dir, len(files))
	}
	for _, s := range secrets {
		if strings.Contains(all.String(), s) {
			t.Errorf("the event log in %s holds the secret %q", dir, s)
		}
	}
}
