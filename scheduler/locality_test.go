package scheduler

import (
	"maps"
	"testing"
	"time"
)

// localHarness has one-core executors e1 on h1 (rack r1), e2 on h2 (r1)
// and e3 on h3 (r2), under a locality wait of 3s.
func localHarness(t *testing.T, wait time.Duration) *harness {
	h := newHarness(t, Config{LocalityWait: wait}, Profile{ID: 0, Cores: 1})
	for _, e := range [][3]string{{"e1", "h1", "r1"}, {"e2", "h2", "r1"}, {"e3", "h3", "r2"}} {
		if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: ExecutorID(e[0]), Host: e[1], Rack: e[2], Cores: 1}); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func localStage(prefs ...TaskLocality) JobSpec {
	return JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: len(prefs), Request: TaskRequest{CPUs: 1}, TaskLocality: prefs}}}
}

var onH1 = TaskLocality{Hosts: []string{"h1"}, Racks: []string{"r1"}}

// wantLaunch checks that rd launched exactly task idx on ex at level at.
func wantLaunch(t *testing.T, rd Ready, idx int, ex ExecutorID, at Locality) {
	t.Helper()
	if len(rd.Launches) != 1 || rd.Launches[0].Attempt.Task.Index != idx || rd.Launches[0].Executor != ex || rd.Launches[0].Locality != at {
		t.Fatalf("launches %s, want task %d on %s %s", fmtLaunches(rd.Launches), idx, ex, at)
	}
}

func wantNoLaunch(t *testing.T, rd Ready) {
	t.Helper()
	if len(rd.Launches) != 0 {
		t.Fatalf("launches %s, want none: still waiting for locality", fmtLaunches(rd.Launches))
	}
}

// A launch at the level the stage waits at restarts its wait.
func TestLocalityWaitRestartsWithALocalLaunch(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	h.submit(localStage(onH1, onH1, onH1))
	first := h.ready()
	wantLaunch(t, first, 0, "e1", NodeLocal)
	h.advance(2 * time.Second)
	h.succeed(first.Launches...)
	wantLaunch(t, h.ready(), 1, "e1", NodeLocal) // at +2s: the wait now ends at +5s
	if at, ok := h.s.Wakeup(h.now); !ok || !at.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("wakeup %v %v, want +5s", at.Sub(t0), ok)
	}
	h.advance(2999 * time.Millisecond)
	wantNoLaunch(t, h.ready()) // past the first wait's +3s, not the new one's
	h.advance(time.Millisecond)
	wantLaunch(t, h.ready(), 2, "e2", RackLocal)
}

// After relaxing, a node-local launch takes the stage back to waiting at
// node-local (Spark's legacy reset).
func TestNodeLocalLaunchGoesBackToNodeLocal(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	onH3 := TaskLocality{Hosts: []string{"h3"}}
	h.submit(localStage(onH1, onH1, onH3, onH1))
	wantLaunchSet(t, h.ready(), map[int]ExecutorID{0: "e1", 2: "e3"})
	h.advance(3 * time.Second)
	wantLaunch(t, h.ready(), 1, "e2", RackLocal)
	// task 3 prefers h1, which is busy: at rack-local it waits for r1.
	h.advance(time.Second)
	h.succeed(launchOf(h, 2))
	wantNoLaunch(t, h.ready()) // e3 is on r2: rack-local does not take it
	h.advance(2 * time.Second)
	wantLaunch(t, h.ready(), 3, "e3", AnyLocality)
}

// wantLaunchSet checks that rd launched exactly these tasks, node-local.
func wantLaunchSet(t *testing.T, rd Ready, want map[int]ExecutorID) {
	t.Helper()
	got := map[int]ExecutorID{}
	for _, l := range rd.Launches {
		if l.Locality != NodeLocal {
			t.Errorf("%s: %s, want node-local", fmtLaunch(l), l.Locality)
		}
		got[l.Attempt.Task.Index] = l.Executor
	}
	if len(got) != len(want) {
		t.Fatalf("launches %s, want %v", fmtLaunches(rd.Launches), want)
	}
	for i, ex := range want {
		if got[i] != ex {
			t.Fatalf("launches %s, want %v", fmtLaunches(rd.Launches), want)
		}
	}
}

// launchOf is the running attempt of task idx of stage 0, as a Launch.
func launchOf(h *harness, idx int) Launch {
	st := h.s.stages[0]
	return Launch{Attempt: AttemptID{TaskID{0, idx}, int(st.task(idx).attempts) - 1}}
}

// A wait of 0 turns delay scheduling off: tasks run anywhere at once,
// on their own hosts where those are free.
func TestLocalityWaitZeroDoesNotWait(t *testing.T) {
	h := localHarness(t, 0)
	onH3 := TaskLocality{Hosts: []string{"h3"}}
	h.submit(localStage(onH1, onH1, onH3))
	rd := h.ready()
	if len(rd.Launches) != 3 {
		t.Fatalf("launches %s, want all three at once", fmtLaunches(rd.Launches))
	}
	for _, l := range rd.Launches {
		if l.Attempt.Task.Index == 2 && (l.Executor != "e3" || l.Locality != NodeLocal) {
			t.Errorf("%s %s: want task 2 node-local on e3", fmtLaunch(l), l.Locality)
		}
	}
}

// A stage's own wait overrides the scheduler's.
func TestStageLocalityWaitOverrides(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	spec := localStage(onH1, onH1)
	wait := 500 * time.Millisecond
	spec.Stages[0].LocalityWait = &wait
	h.submit(spec)
	wantLaunch(t, h.ready(), 0, "e1", NodeLocal)
	if at, ok := h.s.Wakeup(h.now); !ok || !at.Equal(t0.Add(wait)) {
		t.Fatalf("wakeup %v %v, want +500ms", at.Sub(t0), ok)
	}
	h.advance(wait)
	wantLaunch(t, h.ready(), 1, "e2", RackLocal)
}

// Tasks that prefer nothing run at once, and move nothing.
func TestNoPrefTasksRunAtOnce(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	h.submit(localStage(onH1, onH1, TaskLocality{}))
	rd := h.ready()
	if len(rd.Launches) != 2 || rd.Launches[1].Locality != NoPref || rd.Launches[1].Attempt.Task.Index != 2 {
		t.Fatalf("launches %s, want task 0 node-local and task 2 at once", fmtLaunches(rd.Launches))
	}
	if at, ok := h.s.Wakeup(h.now); !ok || !at.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("wakeup %v %v, want +3s: a no-pref launch restarts no wait", at.Sub(t0), ok)
	}
}

// A level none of the queued tasks asks for is passed at once: with the
// host-preferring tasks all launched, the rack-only ones do not wait out
// the node-local wait.
func TestLevelWithoutTasksIsPassedAtOnce(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	onR2 := TaskLocality{Racks: []string{"r2"}}
	h.submit(localStage(onH1, onR2))
	rd := h.ready()
	if len(rd.Launches) != 2 || rd.Launches[1].Executor != "e3" || rd.Launches[1].Locality != RackLocal {
		t.Fatalf("launches %s, want task 0 on e1, then at once task 1 rack-local on e3", fmtLaunches(rd.Launches))
	}
}

// A failed task goes back to its hosts' queues: it runs there again.
func TestRetriedTaskKeepsItsLocality(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	h.submit(localStage(onH1, onH1))
	first := h.ready()
	wantLaunch(t, first, 0, "e1", NodeLocal)
	h.finish(first.Launches[0].Attempt, TaskResult{Outcome: Failed, Blameless: true})
	rd := h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Executor != "e1" || rd.Launches[0].Locality != NodeLocal {
		t.Fatalf("launches %s, want a task of h1 on e1", fmtLaunches(rd.Launches))
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}

// A task restored as succeeded leaves its hosts' queues.
func TestRestoredTaskLeavesLocalityQueues(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	onH2 := TaskLocality{Hosts: []string{"h2"}}
	h.submit(localStage(onH1, onH2))
	if err := h.s.RestoreSucceeded(h.now, TaskID{0, 1}); err != nil {
		t.Fatal(err)
	}
	wantLaunch(t, h.ready(), 0, "e1", NodeLocal)
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	if _, ok := h.s.Wakeup(h.now); ok {
		t.Fatal("a wakeup with nothing queued")
	}
}

func TestTaskLocalityRefused(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	neg := -time.Second
	for _, c := range []struct {
		edit func(*StageSpec)
		want string
	}{
		{func(ss *StageSpec) { ss.Tasks = 3 }, "locality given for 2 tasks, the stage has 3"},
		{func(ss *StageSpec) { ss.Gang = true }, "takes no task locality"},
		{func(ss *StageSpec) { ss.PreferredHosts = []string{"h1"} }, "exclude each other"},
		{func(ss *StageSpec) { ss.LocalityWait = &neg }, "locality wait -1s"},
	} {
		spec := localStage(onH1, onH1)
		c.edit(&spec.Stages[0])
		_, err := h.s.SubmitJob(h.now, spec)
		wantErr(t, err, c.want)
	}
}

func TestHostToLocalTaskCount(t *testing.T) {
	d := HostToLocalTaskCount([]TaskLocality{
		{Hosts: []string{"h1", "h2"}}, {Hosts: []string{"h2", "h3"}, Racks: []string{"r1"}}, {Racks: []string{"r1"}}, {},
	})
	want := map[string]int{"h1": 1, "h2": 2, "h3": 1}
	if d.Tasks != 2 || !maps.Equal(d.HostTasks, want) {
		t.Fatalf("got %d tasks %v, want 2 tasks %v", d.Tasks, d.HostTasks, want)
	}
	if d := HostToLocalTaskCount(nil); d.Tasks != 0 || d.HostTasks != nil {
		t.Fatalf("no tasks: got %+v", d)
	}
}

// The scheduler's LocalityDemand counts the queued tasks only: launched
// ones leave it, a failed one comes back.
func TestLocalityDemandCountsQueuedTasks(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	onH4 := TaskLocality{Hosts: []string{"h4", "h1"}}
	h.submit(localStage(onH1, onH4, onH4, TaskLocality{}))
	if d := h.s.LocalityDemand(0); d.Tasks != 3 || !maps.Equal(d.HostTasks, map[string]int{"h1": 3, "h4": 2}) {
		t.Fatalf("before placing: %+v", d)
	}
	rd := h.ready() // task 0 on h1, the no-pref task 3 anywhere
	if d := h.s.LocalityDemand(0); d.Tasks != 2 || !maps.Equal(d.HostTasks, map[string]int{"h1": 2, "h4": 2}) {
		t.Fatalf("after %s: %+v", fmtLaunches(rd.Launches), d)
	}
	h.finish(rd.Launches[0].Attempt, TaskResult{Outcome: Failed, Blameless: true})
	if d := h.s.LocalityDemand(0); d.Tasks != 3 || d.HostTasks["h1"] != 3 {
		t.Fatalf("after a failure: %+v", d)
	}
	if d := h.s.LocalityDemand(1); d.Tasks != 0 {
		t.Fatalf("another profile: %+v", d)
	}
}

// Retries push tasks on their stacks again, and launches leave stale
// entries behind: the stacks are rebuilt before the stale ones outgrow
// the live ones (plus a slack).
func TestLocalityStacksStayBounded(t *testing.T) {
	h := localHarness(t, 3*time.Second)
	prefs := make([]TaskLocality, 50)
	for i := range prefs {
		prefs[i] = TaskLocality{Hosts: []string{"h1", "h2", "h3"}, Racks: []string{"r1", "r2"}}
	}
	h.submit(localStage(prefs...))
	l := h.s.stages[0].loc
	rebuilt, before := false, l.entries
	for range 2000 {
		rd := h.ready()
		for _, ln := range rd.Launches {
			h.finish(ln.Attempt, TaskResult{Outcome: Failed, Blameless: true})
		}
		if l.entries > 2*l.live+staleSlack+5 {
			t.Fatalf("stacks hold %d entries for %d live", l.entries, l.live)
		}
		rebuilt = rebuilt || l.entries < before-staleSlack/2 // a drop only a rebuild makes
		before = l.entries
		if msg := checkInternal(h.s); msg != "" {
			t.Fatal(msg)
		}
	}
	if !rebuilt {
		t.Fatal("never rebuilt: the test did not reach the bound")
	}
}
