package integration

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/browser"
)

// attemptsScript is stage "work"'s tasks: task 0 fails its first
// attempt and succeeds its second, saying which it is on stdout; tasks 1
// to 4 sleep 1s, 3s, 2s and 0.5s. Stage "hold" waits for its file, so
// that the job, and its UI, last while the browser reads them. In gang
// stage "gang" rank 1 fails its first attempt, and rank 0, which waits,
// is stopped for the gang to run again.
const attemptsScript = `i=$SPINDLE_TASK_INDEX a=$SPINDLE_ATTEMPT
if [ "$SPINDLE_STAGE" = hold ]; then while [ ! -e "$1" ]; do sleep 0.1; done; exit 0; fi
if [ "$SPINDLE_STAGE" = gang ]; then
  echo "gang rank $i attempt $a says hello"
  if [ "$a" = 0 ] && [ "$i" = 1 ]; then sleep 1; exit 4; fi
  if [ "$a" = 0 ]; then sleep 60; fi
  exit 0
fi
echo "task $i attempt $a says hello"
case $i in
0) if [ "$a" = 0 ]; then echo "task 0 fails its first attempt" >&2; exit 3; fi;;
1) sleep 1;; 2) sleep 3;; 3) sleep 2;; 4) sleep 0.5;;
esac
`

// A local job whose task fails then succeeds shows both attempts'
// output from its stage's page, in a real browser from the URL the
// submitter printed: the earlier attempt's links on the stage page and
// the task's own page listing both; the stage's summary has the median
// of its tasks' durations as the REST API gives them, and sorting by
// duration, descending, puts the slowest task first.
func TestObserveLocalUIShowsEveryAttempt(t *testing.T) {
	dir := t.TempDir()
	script, done := filepath.Join(dir, "task.sh"), filepath.Join(dir, "done")
	if err := os.WriteFile(script, []byte(attemptsScript), 0o755); err != nil {
		t.Fatal(err)
	}
	spec := writeSpec(t, fmt.Sprintf("name: attempts\nstages:\n  - {name: work, tasks: 5, command: \"sh %[1]s %[2]s\"}\n"+
		"  - {name: hold, tasks: 1, command: \"sh %[1]s %[2]s\"}\n  - {name: gang, gang: true, tasks: 2, command: \"sh %[1]s %[2]s\"}\n", script, done))
	u := newSessionUser(t)
	cmd, out := u.start("submit", "--master", "local[1]", "--conf", "spindle.executor.cores=8", spec)
	var ui string
	waitFor(t, 30*time.Second, "submit to print UI=", func() bool {
		m := regexp.MustCompile(`(?m)^UI=(http://127\.0\.0\.1:\d+/\S*)$`).FindStringSubmatch(out.String())
		if m != nil {
			ui = m[1]
		}
		return m != nil
	})

	// From the printed URL, whole, by the pages' links.
	b := browser.Start(t)
	b.Open(ui)
	b.WaitText("attempts", 30*time.Second)
	b.Click("0") // job 0
	b.WaitText("Job 0: attempts", 30*time.Second)
	b.Click("0") // its stage 0, work; the page refreshes itself
	b.WaitText("5/5 done", 2*time.Minute)
	stagePage := b.URL()
	b.Screenshot(browser.Artifact(t, "ui-stage-attempts.png"))
	checkEveryAttemptsOutput(t, b, stagePage)
	checkSummaryAndSort(t, b, stagePage)
	checkGangAttempts(t, b, stagePage)
	b.Close()

	if err := os.WriteFile(done, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the job: %v\n%s", err, out.String())
	}
}

// checkEveryAttemptsOutput follows, from the stage page, task 0's
// links to both its attempts' output, on the stage page and on its own.
func checkEveryAttemptsOutput(t *testing.T, b *browser.Browser, stagePage string) {
	t.Helper()
	b.Open(stagePage)
	row := regexp.MustCompile(`(?s)<tr class="task"><td class="n">0</td>.*?</tr>`).FindString(b.HTML())
	links := regexp.MustCompile(`<a href="([^"]+\.stdout)">stdout</a>`).FindAllStringSubmatch(row, -1)
	if len(links) != 2 || !strings.Contains(row, `class="earlier"`) {
		t.Fatalf("task 0's row links %d stdouts, want its two attempts':\n%s", len(links), row)
	}
	for i, want := range []string{"task 0 attempt 1 says hello", "task 0 attempt 0 says hello"} {
		b.Open(resolve(t, stagePage, links[i][1]))
		if text := b.Text(); !strings.Contains(text, want) {
			t.Errorf("the stage page's stdout link %s shows %q, want %q", links[i][1], text, want)
		}
	}

	// The task's page, by its attempt count: both attempts, each with
	// its exit and output.
	b.Open(stagePage)
	b.Click("2")
	text := b.WaitText("Task 0 of stage 0", 30*time.Second)
	for _, want := range []*regexp.Regexp{regexp.MustCompile(`(?m)^0\s+failed\s.*\s3\s+exit status 3`), regexp.MustCompile(`(?m)^1\s+succeeded\s`)} {
		if !want.MatchString(text) {
			t.Errorf("the task page has no %s:\n%s", want, text)
		}
	}
	b.Click("stderr") // the first attempt's
	if text := b.Text(); !strings.Contains(text, "task 0 fails its first attempt") {
		t.Errorf("the first attempt's stderr from the task page: %q", text)
	}
}

// checkSummaryAndSort holds the stage page's summary's median to the
// median of the tasks' durations as the REST API gives them, and its
// order by duration, descending, to the slowest task first.
func checkSummaryAndSort(t *testing.T, b *browser.Browser, stagePage string) {
	t.Helper()
	var tasks struct {
		Tasks []struct {
			Index     int     `json:"index"`
			DurationS float64 `json:"durationS"`
		} `json:"tasks"`
	}
	browserJSON(t, b, resolve(t, stagePage, "/api/v1/stages/0/tasks"), &tasks)
	if len(tasks.Tasks) != 5 {
		t.Fatalf("the REST API lists %d tasks of stage 0, want 5: %+v", len(tasks.Tasks), tasks)
	}
	var durations []float64
	slowest := tasks.Tasks[0]
	for _, tk := range tasks.Tasks {
		durations = append(durations, tk.DurationS)
		if tk.DurationS > slowest.DurationS {
			slowest = tk
		}
	}
	slices.Sort(durations)
	b.Open(stagePage)
	median := regexp.MustCompile(`<td class="n median" data-s="([0-9.e+-]+)">`).FindStringSubmatch(b.HTML())
	if median == nil {
		t.Fatalf("the stage page has no summary:\n%s", b.Text())
	}
	if got, _ := strconv.ParseFloat(median[1], 64); got != durations[2] {
		t.Errorf("the summary's median is %vs; the tasks' durations %v have %vs", got, durations, durations[2])
	}

	// A second click on Duration sorts descending.
	b.Click("Duration")
	b.Click("Duration")
	first := regexp.MustCompile(`<tr class="task"><td class="n">(\d+)</td>`).FindStringSubmatch(b.HTML())
	if slowest.Index != 2 || first == nil || first[1] != "2" {
		t.Errorf("sorted by duration, descending, the first task is %v; want the slowest, task 2 (by the REST API task %d)\n%s", first, slowest.Index, b.Text())
	}
}

// checkGangAttempts follows, from the job's page, its gang stage's link
// to its attempts: the first failed for rank 1, and rank 0's output,
// stopped for the gang to run again, is a link away.
func checkGangAttempts(t *testing.T, b *browser.Browser, stagePage string) {
	t.Helper()
	b.Open(stagePage)
	b.Click("0") // the job
	b.WaitText("Job 0: attempts", 30*time.Second)
	b.Click("2") // its stage 2, gang
	b.WaitText("2/2 done", 2*time.Minute)
	b.Screenshot(browser.Artifact(t, "ui-stage-gang-attempts.png"))
	row := regexp.MustCompile(`(?s)<tr class="gang-attempt" id="gang-attempt-0">.*?</tr>`).FindString(b.HTML())
	if !strings.Contains(row, `<td class="state-failed">failed</td>`) || !strings.Contains(row, "task 1: exit status 4") {
		t.Errorf("the gang's first attempt is not failed for rank 1:\n%s", row)
	}
	rank0 := regexp.MustCompile(`(?s)<div class="rank" data-task="0">task 0 <span class="state-killed">killed</span>.*?<a href="([^"]+\.stdout)">stdout</a>`).FindStringSubmatch(row)
	if rank0 == nil {
		t.Fatalf("the gang's first attempt links no stopped rank 0's stdout:\n%s", row)
	}
	b.Open(resolve(t, b.URL(), rank0[1]))
	if text := b.Text(); !strings.Contains(text, "gang rank 0 attempt 0 says hello") {
		t.Errorf("the stopped rank 0's stdout: %q", text)
	}
}

// resolve is ref, a link on the page at base, as an address.
func resolve(t *testing.T, base, ref string) string {
	t.Helper()
	b, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		t.Fatal(err)
	}
	return b.ResolveReference(r).String()
}

// browserJSON reads the JSON at address in the browser (whose cookies
// the UI may ask for) into v.
func browserJSON(t *testing.T, b *browser.Browser, address string, v any) {
	t.Helper()
	if code := b.Open(address); code != 200 {
		t.Fatalf("%s: %d\n%s", address, code, b.Text())
	}
	text := b.Text()
	// Chromium's JSON viewer may put a control's label before it.
	if err := json.Unmarshal([]byte(text[max(strings.IndexAny(text, "{["), 0):]), v); err != nil {
		t.Fatalf("%s: %v\n%s", address, err, text)
	}
}
