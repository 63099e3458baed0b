package integration

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helpers: the fair-scheduler pools' checks that a local session and a
// YARN session both run (session_pools_test.go, yarn_session_test.go).

// sessionPools is a fairScheduler.xml: light and heavy of weights 1 and
// 3, urgent owed 4 running tasks before weights count.
const sessionPools = `<?xml version="1.0"?>
<allocations>
  <pool name="light"><schedulingMode>FAIR</schedulingMode><weight>1</weight></pool>
  <pool name="heavy"><schedulingMode>FAIR</schedulingMode><weight>3</weight></pool>
  <pool name="urgent"><schedulingMode>FIFO</schedulingMode><weight>1</weight><minShare>4</minShare></pool>
</allocations>
`

// writePools writes sessionPools and returns its path.
func writePools(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fairscheduler.xml")
	if err := os.WriteFile(path, []byte(sessionPools), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// taskSpan is one task's run, from the record its command appends.
type taskSpan struct {
	pool       string
	start, end float64
}

// recordingTask is a task command that sleeps secs, recording its pool
// (the job's name) and its start and end in file.
func recordingTask(file string, secs float64) string {
	return fmt.Sprintf(`s=$(date +%%s.%%N); sleep %v; echo "$SPINDLE_JOB $s $(date +%%s.%%N)" >> %s`, secs, file)
}

// readSpans reads the spans recordingTask wrote to file.
func readSpans(t *testing.T, file string) []taskSpan {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var spans []taskSpan
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("task record %q", line)
		}
		start, err1 := strconv.ParseFloat(f[1], 64)
		end, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("task record %q", line)
		}
		spans = append(spans, taskSpan{f[0], start, end})
	}
	return spans
}

// meanRunning is each pool's mean number of running tasks over
// [from, to), from the tasks' spans.
func meanRunning(spans []taskSpan, from, to float64) map[string]float64 {
	out := map[string]float64{}
	for _, s := range spans {
		if overlap := math.Min(s.end, to) - math.Max(s.start, from); overlap > 0 {
			out[s.pool] += overlap / (to - from)
		}
	}
	return out
}

// checkPoolShares runs three clients at once in a session of 8 task
// slots, each a job of one-second tasks in its own pool, and checks
// Spark's fair sharing from the tasks' own start and end times: while all
// are backlogged, urgent holds its minShare of 4 (its weight alone would
// give it 8/5), and light and heavy split the rest 1:3, within 10%.
func checkPoolShares(t *testing.T, u *sessionUser, id string) {
	file := filepath.Join(t.TempDir(), "spans")
	tasks := map[string]int{"urgent": 80, "heavy": 60, "light": 20} // about 20s each at their shares
	type client struct {
		pool string
		done chan error
		out  *syncBuffer
	}
	var clients []client
	for _, pool := range []string{"light", "heavy", "urgent"} {
		cmd, out := u.start("submit", "--session", id, "--pool", pool, "--name", pool, "--tasks", strconv.Itoa(tasks[pool]), "--", "sh", "-c", recordingTask(file, 1))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		clients = append(clients, client{pool, done, out})
	}
	for _, c := range clients {
		select {
		case err := <-c.done:
			if err != nil || !strings.Contains(c.out.String(), "job "+c.pool+" SUCCEEDED") {
				t.Fatalf("the %s job: %v\n%s", c.pool, err, c.out.String())
			}
		case <-time.After(3 * time.Minute):
			t.Fatalf("the %s job did not end", c.pool)
		}
	}
	spans := readSpans(t, file)
	// All backlogged: from a task's length after the last pool started
	// (the slots the first job took have turned over) to the first pool's
	// last start (its backlog gone).
	first, last := map[string]float64{}, map[string]float64{}
	for _, s := range spans {
		if f, ok := first[s.pool]; !ok || s.start < f {
			first[s.pool] = s.start
		}
		last[s.pool] = math.Max(last[s.pool], s.start)
	}
	from, to := 0.0, math.Inf(1)
	for pool := range tasks {
		from, to = math.Max(from, first[pool]+1), math.Min(to, last[pool])
	}
	if to-from < 5 {
		t.Fatalf("all three pools were backlogged together for %.1fs only: cannot measure shares\n%v", to-from, spans)
	}
	share := meanRunning(spans, from, to)
	ratio := share["heavy"] / share["light"]
	t.Logf("over %.1fs all backlogged, mean running tasks: urgent %.2f, heavy %.2f, light %.2f (heavy:light %.2f)", to-from, share["urgent"], share["heavy"], share["light"], ratio)
	if ratio < 2.7 || ratio > 3.3 {
		t.Errorf("heavy (weight 3) and light (weight 1) ran %.2f and %.2f tasks at once: %.2f:1, want 3:1 within 10%%", share["heavy"], share["light"], ratio)
	}
	if share["urgent"] < 3.6 || share["urgent"] > 4.4 {
		t.Errorf("urgent (minShare 4, weight 1) ran %.2f tasks at once, want its minShare of 4 within 10%%", share["urgent"])
	}
}

// checkFailuresStayWithTheirJob runs a job to success while one job
// fails and another is cancelled beside it.
func checkFailuresStayWithTheirJob(t *testing.T, u *sessionUser, id string) {
	survivor, out := u.start("submit", "--session", id, "--name", "survivor", "--tasks", "4", "--", "sleep", "4")
	if res, err := u.run("submit", "--session", id, "--name", "victim", "--detach", "--tasks", "2", "--", "sleep", "120"); err != nil {
		t.Fatalf("victim: %v\n%s", err, res)
	}
	if res, err := u.run("submit", "--session", id, "--name", "bad", "--conf", "spindle.task.maxFailures=1", "--tasks", "1", "--", "false"); err == nil || !strings.Contains(res, "job bad FAILED") {
		t.Errorf("the failing job: %v\n%s", err, res)
	}
	jobs, _ := u.run("jobs", id)
	victim := regexp.MustCompile(`(?m)^(\d+)\s+victim\s`).FindStringSubmatch(jobs)
	if victim == nil {
		t.Fatalf("no victim in\n%s", jobs)
	}
	if res, err := u.run("cancel", id, victim[1]); err != nil {
		t.Fatalf("cancel: %v\n%s", err, res)
	}
	if err := survivor.Wait(); err != nil || !strings.Contains(out.String(), "job survivor SUCCEEDED") {
		t.Errorf("the job beside a failing and a cancelled one: %v\n%s", err, out.String())
	}
	jobs, _ = u.run("jobs", id)
	for _, want := range []string{`survivor\s+\S+\s+SUCCEEDED\s+4/4`, `victim\s+\S+\s+CANCELLED`, `bad\s+\S+\s+FAILED`} {
		if !regexp.MustCompile(want).MatchString(jobs) {
			t.Errorf("no job matches %s:\n%s", want, jobs)
		}
	}
}

// checkStrangersRefused has a client holding another secret try to
// submit to, list and cancel in session id: each is refused, and the
// session's jobs are as they were.
func checkStrangersRefused(t *testing.T, u *sessionUser, id string) {
	before, err := u.run("jobs", id)
	if err != nil {
		t.Fatal(err)
	}
	// The stranger has the session's record, but a secret of its own.
	dir, _ := u.sessionRecord(id)
	strangerState := t.TempDir()
	sdir := filepath.Join(strangerState, "spindle", "sessions", id)
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "session.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sdir, "session.json"), rec, 0o600)
	os.WriteFile(filepath.Join(sdir, "secret"), []byte(strings.Repeat("s", 32)), 0o600)
	stranger := &sessionUser{t, append(append([]string{}, u.env...), "XDG_STATE_HOME="+strangerState)}
	for _, args := range [][]string{
		{"submit", "--session", id, "--name", "intruder", "--tasks", "1", "--", "true"},
		{"jobs", id},
		{"cancel", id, "0"},
	} {
		if out, err := stranger.run(args...); err == nil || !strings.Contains(out, "handshake") || !strings.Contains(out, "the session did not accept this client's proof of its secret") {
			t.Errorf("a stranger's %s: %v, want it refused at the handshake, in a client's terms\n%s", args[0], err, out)
		}
	}
	if after, _ := u.run("jobs", id); after != before || strings.Contains(after, "intruder") {
		t.Errorf("the stranger changed the session's jobs:\nbefore\n%s\nafter\n%s", before, after)
	}
}
