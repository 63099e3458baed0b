package integration

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// liveHeap asks session id for its driver's live heap, after a
// collection of the driver's own.
func (u *sessionUser) liveHeap(id string) uint64 {
	u.t.Helper()
	dir, rec := u.sessionRecord(id)
	secret, err := os.ReadFile(filepath.Join(dir, "secret"))
	if err != nil {
		u.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "unix", rec["socket"].(string), secret)
	if err != nil {
		u.t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Send(&wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{Collect: true}}}); err != nil {
		u.t.Fatal(err)
	}
	m, err := conn.Recv()
	if err != nil || m.GetStats() == nil {
		u.t.Fatalf("stats: %v, %v", m, err)
	}
	return m.GetStats().GetHeapLiveBytes()
}

// A session gives back what a job held once the job has ended: a job of
// 2,000,000 one-core tasks that mostly wait (its 2 executors run 2 at a
// time), cancelled, leaves the driver's live heap within twice what it
// was idle. (A session once kept 84 bytes a task of every cancelled job:
// 168 MB here.) The session's limits on waiting tasks hold as its
// clients see them: the 2,000,000 tasks are the default per-job limit,
// one more is refused, as is a job that would pass the session's own.
func TestLocalSessionGivesBackWhatAnEndedJobHeld(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[2]", "--conf", "spindle.session.maxPendingTasks=3000000")
	// The driver's paths warm: a job run and ended before the idle figure.
	if out, err := u.run("submit", "--session", id, "--name", "warm", "--tasks", "4", "--", "true"); err != nil || !strings.Contains(out, "job warm SUCCEEDED") {
		t.Fatalf("the first job: %v\n%s", err, out)
	}
	idle := u.liveHeap(id)

	out, err := u.run("submit", "--session", id, "--name", "big", "--detach", "--tasks", "2000000", "--", "sleep", "600")
	if err != nil || !strings.Contains(out, "submitted to session "+id) {
		t.Fatalf("a job at spindle.session.maxPendingTasksPerJob: %v\n%s", err, out)
	}
	var jobs string
	waitFor(t, 30*time.Second, "big's tasks to run", func() bool {
		jobs, _ = u.run("jobs", id)
		return regexp.MustCompile(`big\s+default\s+RUNNING\s+0/2000000`).MatchString(jobs)
	})
	during := u.liveHeap(id)

	out, err = u.run("submit", "--session", id, "--name", "more", "--tasks", "2000001", "--", "true")
	if err == nil || !strings.Contains(out, `the session refused: job "more" has 2000001 tasks waiting, more than spindle.session.maxPendingTasksPerJob (2000000)`) {
		t.Errorf("a job one past spindle.session.maxPendingTasksPerJob: %v\n%s", err, out)
	}
	// big has 1,999,998 waiting (2 run): 1,000,003 more come to 3,000,001.
	out, err = u.run("submit", "--session", id, "--name", "more", "--tasks", "1000003", "--", "true")
	if err == nil || !strings.Contains(out, `the session refused: job "more" would bring the session's tasks waiting to 3000001 (its 1000003, and 1999998 of its other jobs), more than spindle.session.maxPendingTasks (3000000)`) {
		t.Errorf("a job one past spindle.session.maxPendingTasks: %v\n%s", err, out)
	}

	big := regexp.MustCompile(`(?m)^(\d+)\s+big\s`).FindStringSubmatch(jobs)
	if big == nil {
		t.Fatalf("no job big in\n%s", jobs)
	}
	if out, err := u.run("cancel", id, big[1]); err != nil {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	// Its killed tasks report within moments; then nothing of it is left.
	var after uint64
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		if after = u.liveHeap(id); after <= 2*idle || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("live heap: idle %d bytes, big waiting %d, cancelled %d", idle, during, after)
	if after > 2*idle {
		t.Errorf("the driver's live heap is %d bytes after big was cancelled, more than twice the %d it was idle", after, idle)
	}
	if out, err := u.run("submit", "--session", id, "--name", "after", "--tasks", "2", "--", "true"); err != nil || !strings.Contains(out, "job after SUCCEEDED") {
		t.Errorf("the session after the cancel: %v\n%s", err, out)
	}
}
