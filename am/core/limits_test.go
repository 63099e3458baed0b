package core_test

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// newSession is a session's core, its executors of cores cores, under
// the limits l.
func newSession(t *testing.T, cores int, l core.SessionLimits) *coretest.Harness {
	t.Helper()
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: cores}}, Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// submit submits a job of one stage per entry of tasks, each after the
// one before, and returns the core's error.
func submit(h *coretest.Harness, name string, tasks ...int) error {
	job := &jobspec.Job{Name: name, Source: "test"}
	for i, n := range tasks {
		st := jobspec.Stage{Name: string(rune('a' + i)), Tasks: n, CPUs: 1, Command: []string{"true"}}
		if i > 0 {
			st.After = []string{job.Stages[i-1].Name}
		}
		job.Stages = append(job.Stages, st)
	}
	_, err := h.Core.Submit(h.Now, job, nil)
	return err
}

func wantRefused(t *testing.T, err error, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want refused: %s", msg)
	}
	if err.Error() != msg {
		t.Fatalf("refused with %q\nwant %q", err, msg)
	}
}

// One job may have spindle.session.maxPendingTasksPerJob tasks, all its
// stages counted, and not one more; the session's other jobs do not
// matter to it.
func TestMaxPendingTasksPerJob(t *testing.T) {
	h := newSession(t, 2, core.SessionLimits{MaxPendingTasksPerJob: 10})
	if err := submit(h, "at", 10); err != nil {
		t.Fatalf("a job at the limit: %v", err)
	}
	if err := submit(h, "stages", 4, 6); err != nil {
		t.Fatalf("a job of two stages at the limit: %v", err)
	}
	wantRefused(t, submit(h, "past", 11),
		`job "past" has 11 tasks waiting, more than spindle.session.maxPendingTasksPerJob (10)`)
	wantRefused(t, submit(h, "stages", 5, 6),
		`job "stages" has 11 tasks waiting, more than spindle.session.maxPendingTasksPerJob (10)`)
	if n := len(h.Core.Jobs(h.Now)); n != 2 {
		t.Errorf("%d jobs listed, want the 2 accepted", n)
	}
}

// The session's jobs together may have spindle.session.maxPendingTasks
// tasks waiting and not one more: tasks running or done no longer wait,
// and a cancelled job's tasks count no more.
func TestMaxPendingTasks(t *testing.T) {
	h := newSession(t, 2, core.SessionLimits{MaxPendingTasks: 10})
	if err := submit(h, "first", 3, 3); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, submit(h, "second", 5),
		`job "second" would bring the session's tasks waiting to 11 (its 5, and 6 of its other jobs), more than spindle.session.maxPendingTasks (10)`)
	if err := submit(h, "second", 4); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	// Two of first's tasks start: two more may wait.
	h.Register(t, "e1", 2)
	rd := h.Ready()
	if len(rd.Launches) != 2 {
		t.Fatalf("%d launches, want 2", len(rd.Launches))
	}
	wantRefused(t, submit(h, "third", 3),
		`job "third" would bring the session's tasks waiting to 11 (its 3, and 8 of its other jobs), more than spindle.session.maxPendingTasks (10)`)
	if err := submit(h, "third", 2); err != nil {
		t.Fatalf("at the limit, two running: %v", err)
	}
	wantRefused(t, submit(h, "fourth", 1),
		`job "fourth" would bring the session's tasks waiting to 11 (its 1, and 10 of its other jobs), more than spindle.session.maxPendingTasks (10)`)
	// They succeed: they neither run nor wait.
	for _, l := range rd.Launches {
		h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskSucceeded}})
	}
	wantRefused(t, submit(h, "fourth", 1),
		`job "fourth" would bring the session's tasks waiting to 11 (its 1, and 10 of its other jobs), more than spindle.session.maxPendingTasks (10)`)
	// second (4 waiting) cancelled: 4 more may wait.
	if err := h.Core.Cancel(h.Now, 1, "enough"); err != nil {
		t.Fatal(err)
	}
	if err := submit(h, "fourth", 4); err != nil {
		t.Fatalf("after a cancel: %v", err)
	}
}

// A session may have spindle.session.maxRunningJobs jobs not yet ended,
// and not one more until one ends.
func TestMaxRunningJobs(t *testing.T) {
	h := newSession(t, 2, core.SessionLimits{MaxRunningJobs: 2})
	for _, name := range []string{"first", "second"} {
		if err := submit(h, name, 1); err != nil {
			t.Fatalf("%s, up to the limit: %v", name, err)
		}
	}
	wantRefused(t, submit(h, "third", 1), `job "third" would be the session's job 3 not yet ended, more than spindle.session.maxRunningJobs (2)`)
	if err := h.Core.Cancel(h.Now, 0, "enough"); err != nil {
		t.Fatal(err)
	}
	h.Ready()
	if err := submit(h, "third", 1); err != nil {
		t.Fatalf("once one ended: %v", err)
	}
}

// A negative limit is a configuration error; zero is no limit.
func TestLimitsConfig(t *testing.T) {
	if _, err := core.New(core.Config{Profiles: []scheduler.Profile{{Cores: 1}}, Limits: core.SessionLimits{MaxPendingTasks: -1}}); err == nil {
		t.Error("a negative session limit accepted")
	}
	if _, err := core.New(core.Config{Profiles: []scheduler.Profile{{Cores: 1}}, Limits: core.SessionLimits{MaxPendingTasksPerJob: -1}}); err == nil {
		t.Error("a negative per-job limit accepted")
	}
	if _, err := core.New(core.Config{Profiles: []scheduler.Profile{{Cores: 1}}, Limits: core.SessionLimits{MaxRunningJobs: -1}}); err == nil {
		t.Error("a negative limit on running jobs accepted")
	}
	h := newSession(t, 2, core.SessionLimits{})
	if err := submit(h, "big", 1_000_000, 1_000_000); err != nil {
		t.Errorf("no limits: %v", err)
	}
}
