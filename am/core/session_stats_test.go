package core_test

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Executor time counts each executor from its registration to its
// removal, idle while it runs no task; a task runs from its launch until
// the scheduler hears it ended (succeeded, failed, killed). The figures
// at each step are worked out by hand in the comments.
func TestStatsCountExecutorTimeAtEachChange(t *testing.T) {
	h := newSession(t, 1, core.SessionLimits{})
	register := func(id scheduler.ExecutorID) { h.Register(t, id, 1) }
	// run submits a one-task job and returns its launch.
	run := func(name string) core.TaskLaunch {
		t.Helper()
		h.Submit(t, name, 1, jobspec.Defaults{MaxAttempts: 1}, "true")
		rd := h.Ready()
		if len(rd.Launches) != 1 {
			t.Fatalf("job %s: %d launches, want 1", name, len(rd.Launches))
		}
		return rd.Launches[0]
	}
	report := func(l core.TaskLaunch, state core.TaskState) {
		h.Core.Statuses(h.Now, l.Executor, []core.TaskStatus{{Attempt: l.Attempt, State: state}})
		h.Ready()
	}
	check := func(at string, want core.SessionStats) {
		t.Helper()
		for range 2 { // a query: asking again changes nothing
			if got := h.Core.Stats(h.Now); got != want {
				t.Fatalf("at %s: %+v, want %+v", at, got, want)
			}
		}
	}

	check("the start", core.SessionStats{})
	register("e1")
	register("e2")
	ok := run("ok")
	h.Advance(10 * time.Second)
	// Two executors for 10s, one of them running ok's task.
	check("10s", core.SessionStats{ExecutorSeconds: 20, IdleExecutorSeconds: 10, PeakExecutors: 2})

	report(ok, core.TaskSucceeded)
	bad := run("bad")
	h.Advance(5 * time.Second)
	report(bad, core.TaskFailed)
	long := run("long")
	h.Advance(5 * time.Second)
	if err := h.Core.Cancel(h.Now, 2, "test"); err != nil {
		t.Fatal(err)
	}
	if rd := h.Ready(); len(rd.Kills) != 1 {
		t.Fatalf("cancel: %+v, want a kill", rd)
	}
	// Ended, its task runs until it reports killed.
	h.Advance(time.Second)
	report(long, core.TaskKilled)
	// 42s of executors; tasks ran 10s + 5s + 6s of it.
	check("21s", core.SessionStats{ExecutorSeconds: 42, IdleExecutorSeconds: 21, PeakExecutors: 2, JobsSucceeded: 1, JobsFailed: 1, JobsCancelled: 1})

	// e2 goes at 21s, e3 comes at 26s: never more than 2 at once. A task
	// runs on one of them from 26s.
	h.Core.ConnectionEnded(h.Now, "e2", "gone")
	h.Ready()
	h.Advance(5 * time.Second)
	register("e3")
	run("late")
	h.Advance(5 * time.Second)
	// e1 31s, e2 21s, e3 5s; busy 21s before, 5s now.
	check("31s", core.SessionStats{ExecutorSeconds: 57, IdleExecutorSeconds: 31, PeakExecutors: 2, JobsSucceeded: 1, JobsFailed: 1, JobsCancelled: 1})
}

// An executor whose connection ended, while its exit status is awaited,
// still holds its container and its tasks still run: it counts until it
// is declared lost, busy as it was.
func TestStatsCountADepartingExecutorUntilItIsLost(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, LossReasonWait: 10 * time.Second, Profiles: []scheduler.Profile{{Cores: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Register(t, "e1", 1)
	h.Submit(t, "j", 1, jobspec.Defaults{}, "true")
	if rd := h.Ready(); len(rd.Launches) != 1 {
		t.Fatalf("%d launches, want 1", len(rd.Launches))
	}
	h.Advance(4 * time.Second)
	h.Core.ConnectionEnded(h.Now, "e1", "reset")
	h.Advance(10 * time.Second)
	h.Ready() // lost now: its task is queued again, with no executor
	h.Advance(6 * time.Second)
	if got, want := h.Core.Stats(h.Now), (core.SessionStats{ExecutorSeconds: 14, PeakExecutors: 1}); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// Container requests count what the asks add to what the RM still owes,
// as spindle sim's RM counts them: an unchanged want is not asked again, a
// container allocated fills one owed, and an RM that forgot the
// application owes nothing.
func TestStatsCountContainerRequests(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	// allocate answers the allocate that Ready sends, with the containers
	// ids allocated and those completed, and returns its ask (-1: none).
	allocate := func(allocated, completed []string) int {
		t.Helper()
		h.Advance(time.Second)
		rd := h.Ready()
		if rd.Allocate == nil {
			t.Fatal("no allocate")
		}
		res := core.AllocateResult{ClusterNodes: 1}
		for _, id := range allocated {
			res.Allocated = append(res.Allocated, core.Container{ID: id, Node: "n:1", NodeName: "n", Ask: h.ContainerFor(0)})
		}
		for _, id := range completed {
			res.Completed = append(res.Completed, core.Completion{Container: id})
		}
		h.Core.Allocated(h.Now, res)
		if len(rd.Allocate.Asks) == 0 {
			return -1
		}
		return rd.Allocate.Asks[0].Count
	}
	for i, step := range []struct {
		allocated, completed []string
		ask, requests        int
	}{
		{ask: 2, requests: 2, allocated: []string{"c1"}},  // 1 still owed
		{ask: -1, requests: 2},                            // the RM holds it
		{ask: -1, requests: 2, allocated: []string{"c2"}}, // none owed
		{ask: -1, requests: 2, completed: []string{"c1"}},
		{ask: 1, requests: 3}, // c1's replacement
	} {
		if ask := allocate(step.allocated, step.completed); ask != step.ask || h.Core.Stats(h.Now).ContainerRequests != step.requests {
			t.Fatalf("allocate %d: asked %d, %d requests; want %d, %d", i, ask, h.Core.Stats(h.Now).ContainerRequests, step.ask, step.requests)
		}
	}
	h.Core.Resynced(h.Now)
	if ask := allocate(nil, nil); ask != 1 || h.Core.Stats(h.Now).ContainerRequests != 4 {
		t.Errorf("after a resync: asked %d, %d requests; want 1 asked anew, 4", ask, h.Core.Stats(h.Now).ContainerRequests)
	}
}
