package am

import (
	"runtime"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session tells its clients what its executors have cost: time, idle
// time while none of their tasks ran, the most at once, the jobs that
// ended by how; a local session asks for no containers.
func TestSessionServesItsStats(t *testing.T) {
	d, _ := startSession(t)
	stats := func() *wire.Stats {
		t.Helper()
		out, err := request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{}}})
		if err != nil || len(out) != 1 || out[0].GetStats() == nil {
			t.Fatalf("stats: %v, %v", out, err)
		}
		return out[0].GetStats()
	}

	if out, err := request(t, d, sessionSecret, submit("name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n", true)); err != nil ||
		out[len(out)-1].GetJobUpdate().GetJob().GetState() != "SUCCEEDED" {
		t.Fatalf("followed submit: %v, %v", out, err)
	}
	out, _ := request(t, d, sessionSecret, submit("name: long\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", false))
	long := out[0].GetJobAccepted().GetJobId()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}})
		if jobs := out[0].GetJobList().GetJobs(); len(jobs) == 2 && jobs[1].GetRunning() == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("long's task did not start: %v", out)
		}
	}

	// The one executor runs long's task: its time goes on, its idle time
	// does not.
	before := stats()
	time.Sleep(200 * time.Millisecond)
	during := stats()
	if during.GetExecutorSeconds()-before.GetExecutorSeconds() < 0.2 || during.GetIdleExecutorSeconds() != before.GetIdleExecutorSeconds() ||
		during.GetIdleExecutorSeconds() >= during.GetExecutorSeconds() {
		t.Errorf("while a task runs: %v, then %v; want 0.2s more executor time and no more idle", before, during)
	}
	if during.GetPeakExecutors() != 1 || during.GetContainerRequests() != 0 || during.GetJobsSucceeded() != 1 || during.GetJobsCancelled() != 0 {
		t.Errorf("stats %v: want 1 executor at most, no container requests, 1 job succeeded", during)
	}

	if _, err := request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: long}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); stats().GetJobsCancelled() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled job is not counted: %v", stats())
		}
	}
}

// A session's stats give its driver's live heap, after a collection of
// its own when asked: 64 MiB made live in the driver's process shows, and
// goes once dropped.
func TestSessionStatsGiveTheLiveHeap(t *testing.T) {
	d, _ := startSession(t)
	heap := func() uint64 {
		t.Helper()
		out, err := request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{Collect: true}}})
		if err != nil || len(out) != 1 || out[0].GetStats() == nil {
			t.Fatalf("stats: %v, %v", out, err)
		}
		return out[0].GetStats().GetHeapLiveBytes()
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

// A followed job's last update carries its summary's cut output files:
// those named, and how many more.
func TestFollowersHearOfCutFilesNotListed(t *testing.T) {
	d, err := New(Config{Core: core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}}}, Executors: listen(t, testSecret), Clients: listen(t, sessionSecret)})
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{job: 7, updates: make(chan *wire.JobUpdate, 1), final: make(chan *wire.JobUpdate, 1), gone: make(chan struct{})}
	d.followers = []*follower{f}
	d.updateFollowers(time.Now(), []core.Summary{{ID: 7, OutputCut: []string{"e1/x.stdout"}, OutputCutMore: 41}})
	u := <-f.final
	if !u.GetEnded() || len(u.GetOutputCut()) != 1 || u.GetOutputCutMore() != 41 {
		t.Errorf("last update %v: want it ended, 1 cut file named, 41 more", u)
	}
}
