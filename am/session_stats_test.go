package am_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// A session tells its clients what its executors have cost: time, idle
// time while none of their tasks ran, the most at once, the jobs that
// ended by how; a local session asks for no containers.
func TestSessionServesItsStats(t *testing.T) {
	d := startSession(t)
	c := d.Client()
	if _, updates := c.SubmitFollow(t, "name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n"); updates[len(updates)-1].GetJob().GetState() != "SUCCEEDED" {
		t.Fatalf("the followed job ended %v", updates[len(updates)-1])
	}
	long := c.Submit(t, "name: long\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n")
	d.AwaitStatus(t, "long's task running", func(st core.Status) bool { return len(st.Jobs) == 2 && st.Jobs[1].Running == 1 })

	// The one executor runs long's task: its time goes on, by the loop's
	// clock between its two answers, which the test's clock bounds; its
	// idle time does not.
	start := time.Now()
	before := c.Stats(t, false)
	during := c.Stats(t, false)
	within := time.Since(start)
	grew := during.GetExecutorSeconds() - before.GetExecutorSeconds()
	if grew <= 0 || grew > within.Seconds() || during.GetIdleExecutorSeconds() != before.GetIdleExecutorSeconds() ||
		during.GetIdleExecutorSeconds() >= during.GetExecutorSeconds() {
		t.Errorf("while a task runs: %v, then %v within %v; want more executor time, no more than that, and no more idle", before, during, within)
	}
	if during.GetPeakExecutors() != 1 || during.GetContainerRequests() != 0 || during.GetJobsSucceeded() != 1 || during.GetJobsCancelled() != 0 {
		t.Errorf("stats %v: want 1 executor at most, no container requests, 1 job succeeded", during)
	}

	c.Cancel(t, long, "")
	d.AwaitStatus(t, "long cancelled", func(st core.Status) bool { return st.Jobs[1].State == string(core.JobCancelled) })
	if stats := c.Stats(t, false); stats.GetJobsCancelled() != 1 {
		t.Fatalf("the cancelled job is not counted: %v", stats)
	}
}

// A session's stats give its driver's live heap, after a collection of
// its own when asked: 64 MiB made live in the driver's process shows, and
// goes once dropped.
func TestSessionStatsGiveTheLiveHeap(t *testing.T) {
	c := startSession(t).Client()
	heap := func() uint64 {
		t.Helper()
		return c.Stats(t, true).GetHeapLiveBytes()
	}
	const ballast = 64 << 20
	before := heap()
	held := make([]byte, ballast)
	during := heap()
	runtime.KeepAlive(held)
	held = nil
	after := heap()
	// Within 8 MiB: the test binary's other garbage (goroutines of earlier
	// tests winding down) comes and goes meanwhile.
	const slack = 8 << 20
	if rose, fell := int64(during)-int64(before), int64(during)-int64(after); before == 0 || rose < ballast-slack || fell < ballast-slack {
		t.Errorf("live heap %d, with 64 MiB more held %d (+%d), dropped %d (-%d)", before, during, rose, after, fell)
	}
}
