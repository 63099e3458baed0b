package history

import (
	"reflect"
	"testing"
)

// gangScript is a gang of 4 ranks on two executors whose rank 2 exits 1
// on its first run: the scheduler stops the others, and the gang runs
// again at another port; then a try at acquiring its slots times out.
func gangScript() []Event {
	started := func(s float64, index, attempt int, exec string) Event {
		return Event{Time: at(s), TaskStarted: &TaskStarted{Stage: 0, Index: index, Attempt: attempt, Executor: exec, GPUs: []string{"0"}}}
	}
	ended := func(s float64, index, attempt int, exec, state string, code int, reason string) Event {
		return Event{Time: at(s), TaskEnded: &TaskEnded{Stage: 0, Index: index, Attempt: attempt, Executor: exec, State: state, ExitCode: code, Reason: reason}}
	}
	restart := `gang stage "train" restarts: task 2 ended: exit status 1`
	return []Event{
		{Time: at(0), App: &AppStarted{ID: "local-1", Master: "local[2]"}},
		{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1", Cores: 2, GPUs: []string{"0", "1"}}},
		{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e2", Host: "n2", Cores: 2, GPUs: []string{"0", "1"}, LogURL: "http://n2:8042/logs"}},
		{Time: at(1), JobSubmitted: &JobSubmitted{ID: 0, Name: "gang", Stages: []StageInfo{{ID: 0, Name: "train", Tasks: 4, GPUs: 1, Cores: 1, Gang: true}}}},
		{Time: at(2), GangStarted: &GangStarted{Stage: 0, MasterAddr: "n1", MasterPort: 29500}},
		started(2, 0, 0, "e1"), started(2, 1, 0, "e1"), started(2, 2, 0, "e2"), started(2, 3, 0, "e2"),
		ended(3, 0, 0, "e1", TaskSucceeded, 0, ""),
		ended(4, 2, 0, "e2", TaskFailed, 1, "exit status 1"),
		ended(5, 1, 0, "e1", TaskKilled, 0, restart), ended(5, 3, 0, "e2", TaskKilled, 0, restart),
		{Time: at(6), GangStarted: &GangStarted{Stage: 0, MasterAddr: "n2", MasterPort: 29501}},
		started(6, 0, 1, "e2"), started(6, 1, 1, "e2"), started(6, 2, 1, "e1"), started(6, 3, 1, "e1"),
	}
}

func TestAGangShowsItsRanksAndWhyItRestarted(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, gangScript()...)
	g, ok := s.Gang(at(7), 0)
	if !ok {
		t.Fatal("stage 0 is no gang")
	}
	if g.Runs != 2 || g.Master != "n2:29501" || g.Ended != nil {
		t.Errorf("runs %d at %s, ended %+v; want 2 at n2:29501, running", g.Runs, g.Master, g.Ended)
	}
	want := []GangRestart{{Time: at(4), Reason: "rank 2 exited 1", Rank: 2, Executor: "e2", File: "job0-stage0-task2-attempt0", LogURL: "http://n2:8042/logs"}}
	if !reflect.DeepEqual(g.Restarts, want) {
		t.Errorf("restarts %+v, want %+v", g.Restarts, want)
	}
	if len(g.Ranks) != 4 {
		t.Fatalf("ranks %+v, want 4", g.Ranks)
	}
	for i, r := range g.Ranks {
		host := map[bool]string{true: "n2", false: "n1"}[i < 2]
		if r.Index != i || r.Host != host || r.State != TaskRunning || r.Attempts != 2 || r.File != tasklogName(i, 1) {
			t.Errorf("rank %d: %+v, want running its second attempt on %s", i, r, host)
		}
	}
	if _, ok := s.Gang(at(7), 5); ok {
		t.Error("a gang view of a stage not known")
	}

	// Rank 3 fails for a reason of its own; while the gang waits its
	// last run's end shows, then a try that timed out.
	record(t, s, Event{Time: at(8), TaskEnded: &TaskEnded{Stage: 0, Index: 3, Attempt: 1, Executor: "e1", State: TaskFailed, Reason: "no port free"}},
		Event{Time: at(9), GangTimedOut: &GangTimedOut{Stage: 0, Try: 1, Message: "2 of 4 tasks placeable within 1m0s"}})
	g, _ = s.Gang(at(10), 0)
	if g.Ended == nil || g.Ended.Reason != "rank 3 failed: no port free" {
		t.Errorf("ended %+v, want rank 3's failure", g.Ended)
	}
	if len(g.Restarts) != 2 || g.Restarts[1].Reason != "timed out waiting: 2 of 4 tasks placeable within 1m0s" {
		t.Errorf("restarts %+v, want the timeout second", g.Restarts)
	}

	// A snapshot, what `spindle history` reads after a compaction, and
	// the log's lines keep it all.
	again := NewStore(Limits{})
	record(t, again, s.Snapshot()...)
	if a, _ := again.Gang(at(10), 0); !reflect.DeepEqual(a, g) {
		t.Errorf("from a snapshot:\n%+v\nwant\n%+v", a, g)
	}
	var lines []byte
	for _, e := range append(gangScript(), Event{Time: at(8), TaskEnded: &TaskEnded{Stage: 0, Index: 3, Attempt: 1, Executor: "e1", State: TaskFailed, Reason: "no port free"}},
		Event{Time: at(9), GangTimedOut: &GangTimedOut{Stage: 0, Try: 1, Message: "2 of 4 tasks placeable within 1m0s"}}) {
		lines, _ = appendEvent(lines, &e)
	}
	read := NewStore(Limits{})
	events, err := Decode(lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		record(t, read, e.Event)
	}
	if a, _ := read.Gang(at(10), 0); !reflect.DeepEqual(a, g) {
		t.Errorf("from the log's lines:\n%+v\nwant\n%+v", a, g)
	}
}

// A rank whose executor goes ends its run, the Store hearing of no end
// of the rank's own; a stage that is no gang has no gang view.
func TestAGangRunEndsWithARanksExecutor(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, gangScript()...)
	record(t, s, Event{Time: at(7), ExecutorRemoved: &ExecutorRemoved{ID: "e1", Reason: "container exited with 137", Lost: true}})
	g, _ := s.Gang(at(8), 0)
	if g.Ended == nil || g.Ended.Reason != "rank 2's executor e1 went: container exited with 137" || g.Ended.File != tasklogName(2, 1) {
		t.Errorf("ended %+v, want rank 2's executor lost", g.Ended)
	}
	ok := NewStore(Limits{})
	record(t, ok, script()...)
	if _, is := ok.Gang(at(8), 0); is {
		t.Error("a gang view of a stage that is no gang")
	}
}

func tasklogName(index, attempt int) string {
	return "job0-stage0-task" + string(rune('0'+index)) + "-attempt" + string(rune('0'+attempt))
}

// A gang keeps its latest restarts and counts the rest.
func TestAGangKeepsItsLatestRestarts(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, gangScript()[:4]...)
	for i := range maxGangRestarts + 3 {
		record(t, s, Event{Time: at(float64(10 + i)), GangTimedOut: &GangTimedOut{Stage: 0, Try: i + 1, Message: "m"}})
	}
	g, _ := s.Gang(at(200), 0)
	if g.RestartCount != maxGangRestarts+3 || len(g.Restarts) != maxGangRestarts || !g.Restarts[0].Time.Equal(at(13)) {
		t.Errorf("%d restarts, %d listed from %v; want %d, the latest %d from %v", g.RestartCount, len(g.Restarts), g.Restarts[0].Time, maxGangRestarts+3, maxGangRestarts, at(13))
	}
	again := NewStore(Limits{})
	record(t, again, s.Snapshot()...)
	if a, _ := again.Gang(at(200), 0); a.RestartCount != g.RestartCount {
		t.Errorf("from a snapshot: %d restarts, want %d", a.RestartCount, g.RestartCount)
	}
}

// What the last run's ranks do after the next run began ends nothing of
// the new run: a stopped rank's late end, or its executor going while
// it still stops.
func TestALastRunsRanksDoNotEndTheNextRun(t *testing.T) {
	script := gangScript()
	// The log's order: rank 2's failure, the next run, then the others'
	// ends and an executor's going, before any rank of the new run starts.
	failed, next := script[10], script[13]
	s := NewStore(Limits{})
	record(t, s, script[:10]...)
	record(t, s, failed, next, script[11])
	record(t, s, Event{Time: at(5), ExecutorRemoved: &ExecutorRemoved{ID: "e2", Reason: "released"}}, script[12])
	g, _ := s.Gang(at(6), 0)
	if g.Runs != 2 || g.Ended != nil || g.RestartCount != 1 {
		t.Errorf("runs %d, ended %+v, %d restarts; want the second run going, its end unset, one restart", g.Runs, g.Ended, g.RestartCount)
	}
}
