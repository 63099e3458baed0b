package history

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

func jobLine(j JobView) string {
	return fmt.Sprintf("%d %s %s %s tasks=%d done=%d running=%d waiting=%d failed=%d killed=%d %.0fs", j.ID, j.Name, j.Pool, j.State,
		j.Tasks, j.Succeeded, j.Running, j.Waiting, j.FailedAttempts, j.KilledAttempts, j.DurationS)
}

func stageLine(st StageView) string {
	return fmt.Sprintf("%d %s %s done=%d running=%d waiting=%d failed=%d listed=%d", st.ID, st.Name, st.State, st.Succeeded, st.Running,
		st.Waiting, st.FailedAttempts, st.Listed)
}

func TestAStoreFollowsAJob(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	j, ok := s.Job(at(10), 0)
	if !ok {
		t.Fatal("no job 0")
	}
	if got, want := jobLine(j.view0()), "0 train prod running tasks=4 done=1 running=2 waiting=1 failed=1 killed=0 8s"; got != want {
		t.Errorf("job: %s\nwant %s", got, want)
	}
	var stages []string
	for _, st := range j.Stages {
		stages = append(stages, stageLine(st))
	}
	if got, want := strings.Join(stages, "; "), "0 fit running done=1 running=2 waiting=0 failed=1 listed=3; 1 report waiting done=0 running=0 waiting=1 failed=0 listed=1"; got != want {
		t.Errorf("stages: %s\nwant %s", got, want)
	}
	p, _ := s.Tasks(at(10), 0, TaskQuery{Length: 10})
	var tasks []string
	for _, tk := range p.Tasks {
		tasks = append(tasks, fmt.Sprintf("%d %s x%d %s@%s %v %.0fs", tk.Index, tk.State, tk.Attempts, tk.Executor, tk.Host, tk.GPUs, tk.DurationS))
	}
	if got, want := strings.Join(tasks, "; "), "0 succeeded x1 e1@n1 [0] 2s; 1 running x2 e1@n1 [1] 4s; 2 running x1 e1@n1 [0] 2s"; got != want {
		t.Errorf("tasks: %s\nwant %s", got, want)
	}
	var execs []string
	for _, x := range s.Executors(at(10)) {
		execs = append(execs, fmt.Sprintf("%s %s running=%d done=%d failed=%d %s", x.ID, x.State, x.Running, x.Succeeded, x.Failed, x.Reason))
	}
	if got, want := strings.Join(execs, "; "), "e1 active running=2 done=1 failed=0 ; e2 lost running=0 done=0 failed=1 container exited with 137"; got != want {
		t.Errorf("executors: %s\nwant %s", got, want)
	}
	var pools []string
	for _, p := range s.Pools() {
		pools = append(pools, fmt.Sprintf("%s/%s w%d m%d jobs=%d running=%d waiting=%d", p.Name, p.Mode, p.Weight, p.MinShare, p.Jobs, p.Running, p.Waiting))
	}
	if got, want := strings.Join(pools, "; "), "prod/FAIR w2 m1 jobs=1 running=2 waiting=1; default/FIFO w1 m0 jobs=0 running=0 waiting=0"; got != want {
		t.Errorf("pools: %s\nwant %s", got, want)
	}
	app := s.App()
	if app.State != JobRunning || app.Executors != 1 || app.Jobs[JobRunning] != 1 || app.Tasks.Succeeded != 1 {
		t.Errorf("app: %+v", app)
	}
}

// view0 is the job's view without its stages, as Jobs lists it.
func (j JobView) view0() JobView { j.Stages = nil; return j }

func TestAStoreEndsAJobAndTheApplication(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	record(t, s,
		Event{Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 1, Attempt: 1, Executor: "e1", State: TaskSucceeded}},
		Event{Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 2, Attempt: 0, Executor: "e1", State: TaskKilled, Reason: "cancelled"}},
		Event{Time: at(9), JobEnded: &JobEnded{ID: 0, State: JobCancelled, Reason: "not needed"}},
		Event{Time: at(10), AppEnded: &AppEnded{Succeeded: false, Diagnostics: "stopped"}},
	)
	j, _ := s.Job(at(20), 0)
	if got, want := jobLine(j.view0()), "0 train prod cancelled tasks=4 done=2 running=0 waiting=0 failed=1 killed=1 7s"; got != want {
		t.Errorf("job: %s\nwant %s", got, want)
	}
	if st := j.Stages[0]; st.State != JobCancelled || st.Ended == nil || !st.Ended.Equal(at(9)) {
		t.Errorf("the cancelled job's stage: %s ended %v", st.State, st.Ended)
	}
	app := s.App()
	if app.State != JobFailed || app.Ended == nil || app.Executors != 0 || app.Diagnostics != "stopped" {
		t.Errorf("the application: %+v", app)
	}
	for _, x := range s.Executors(at(20)) {
		if x.State == "active" || x.Removed == nil {
			t.Errorf("executor %s is %s after the application ended", x.ID, x.State)
		}
	}
	if p := s.Pools(); p[0].Jobs != 0 || p[0].Waiting != 0 {
		t.Errorf("an ended job still counts in its pool: %+v", p[0])
	}
}

// An attempt's end that comes after its task was launched again (the
// old attempt written off) changes nothing; nor does an end told twice.
func TestAStoreIgnoresAnOlderAttemptsEnd(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	record(t, s,
		Event{Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 1, Attempt: 0, Executor: "e2", State: TaskSucceeded}},
		Event{Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Attempt: 0, Executor: "e1", State: TaskSucceeded}},
	)
	st, _ := s.Stage(at(10), 0)
	if got, want := stageLine(st), "0 fit running done=1 running=2 waiting=0 failed=1 listed=3"; got != want {
		t.Errorf("stage: %s\nwant %s", got, want)
	}
}

func TestAStoreRefusesWhatContradictsIt(t *testing.T) {
	for name, e := range map[string]Event{
		"a task of no stage":                      {Time: at(9), TaskStarted: &TaskStarted{Stage: 7, Index: 0, Executor: "e1"}},
		"a task past its stage's end":             {Time: at(9), TaskStarted: &TaskStarted{Stage: 0, Index: 3, Executor: "e1"}},
		"a job submitted twice":                   {Time: at(9), JobSubmitted: &JobSubmitted{ID: 0, Name: "again"}},
		"a stage of another job":                  {Time: at(9), JobSubmitted: &JobSubmitted{ID: 5, Stages: []StageInfo{{ID: 1, Tasks: 1}}}},
		"an executor added twice":                 {Time: at(9), ExecutorAdded: &ExecutorAdded{ID: "e1"}},
		"an executor removed twice":               {Time: at(9), ExecutorRemoved: &ExecutorRemoved{ID: "e2"}},
		"a job ended that never began":            {Time: at(9), JobEnded: &JobEnded{ID: 9, State: JobFailed}},
		"an executor's counts outside a snapshot": {Time: at(9), ExecutorCounts: &ExecutorCounts{ID: "e1"}},
		"no task state":                           {Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 2, State: "exploded"}},
		"two kinds":                               {Time: at(9), AppEnded: &AppEnded{}, Pools: []PoolInfo{{Name: "x"}}},
	} {
		t.Run(name, func(t *testing.T) {
			s := NewStore(Limits{})
			record(t, s, script()...)
			if err := s.Record(e); err == nil {
				t.Error("taken")
			}
			if name == "a job ended that never began" {
				record(t, s, Event{Time: at(9), JobEnded: &JobEnded{ID: 0, State: JobFailed}})
				if err := s.Record(Event{Time: at(9), JobEnded: &JobEnded{ID: 0, State: JobSucceeded}}); err == nil {
					t.Error("a job ended twice: taken")
				}
				return
			}
			// What was there is untouched.
			if j, _ := s.Job(at(10), 0); j.Name != "train" || j.Running != 2 {
				t.Errorf("the job changed: %+v", j)
			}
		})
	}
}

// A stage lists its first RetainedTasks tasks, exactly that many; its
// counts cover every task.
func TestAStoreListsUpToRetainedTasks(t *testing.T) {
	for _, tc := range []struct{ tasks, listed int }{{3, 3}, {4, 3}} {
		s := NewStore(Limits{RetainedTasks: 3})
		record(t, s, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e1"}},
			Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Tasks: tc.tasks}}}})
		for i := range tc.tasks {
			record(t, s, Event{Time: at(1), TaskStarted: &TaskStarted{Stage: 0, Index: i, Executor: "e1"}},
				Event{Time: at(2), TaskEnded: &TaskEnded{Stage: 0, Index: i, Executor: "e1", State: TaskSucceeded}})
		}
		st, _ := s.Stage(at(3), 0)
		p, _ := s.Tasks(at(3), 0, TaskQuery{Length: 10})
		if st.Listed != tc.listed || len(p.Tasks) != tc.listed || p.Total != tc.listed || st.Succeeded != tc.tasks || st.State != JobSucceeded {
			t.Errorf("%d tasks: listed %d, page %d of %d, %d succeeded, %s; want %d listed, all succeeded", tc.tasks, st.Listed, len(p.Tasks), p.Total, st.Succeeded, st.State, tc.listed)
		}
		if x := s.Executors(at(3))[0]; x.Running != 0 || x.Succeeded != tc.tasks {
			t.Errorf("%d tasks: the executor has %d running, %d succeeded", tc.tasks, x.Running, x.Succeeded)
		}
	}
}

// Ended jobs beyond RetainedJobs go, the oldest first, exactly so many
// kept; running jobs stay however old.
func TestAStoreKeepsRetainedJobs(t *testing.T) {
	s := NewStore(Limits{RetainedJobs: 2})
	for id := range int64(4) {
		record(t, s, Event{Time: at(float64(id)), JobSubmitted: &JobSubmitted{ID: id, Name: fmt.Sprint("j", id), Stages: []StageInfo{{ID: id, Tasks: 1}}}})
	}
	for _, id := range []int64{1, 2} {
		record(t, s, Event{Time: at(5), JobEnded: &JobEnded{ID: id, State: JobSucceeded}})
	}
	if got := names(s.Jobs(at(6))); got != "j3 j2 j1 j0" {
		t.Errorf("with 2 ended jobs, at the limit: %s", got)
	}
	record(t, s, Event{Time: at(6), JobEnded: &JobEnded{ID: 3, State: JobFailed}})
	if got := names(s.Jobs(at(7))); got != "j3 j2 j0" {
		t.Errorf("with 3 ended jobs, one past the limit: %s", got)
	}
	if _, ok := s.Stage(at(7), 1); ok {
		t.Error("the forgotten job's stage is still there")
	}
}

func names(jobs []JobView) string {
	var out []string
	for _, j := range jobs {
		out = append(out, j.Name)
	}
	return strings.Join(out, " ")
}

// The timeline samples at most once a step and, full, keeps every other
// point at twice the step: it never holds more than TimelinePoints.
func TestTheTimelineStaysWithinItsPoints(t *testing.T) {
	s := NewStore(Limits{TimelinePoints: 4})
	record(t, s, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e1"}},
		Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Pool: "prod", Stages: []StageInfo{{ID: 0, Tasks: 10}}}})
	record(t, s, Event{Time: at(0.5), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Executor: "e1"}}) // within the step
	for i := 1; i <= 4; i++ {
		record(t, s, Event{Time: at(float64(i)), TaskStarted: &TaskStarted{Stage: 0, Index: i, Executor: "e1"}})
	}
	var got []string
	for _, p := range s.Timeline(at(4)) {
		got = append(got, fmt.Sprintf("%.0fs held=%d busy=%d prod=%d", p.Time.Sub(t0).Seconds(), p.Held, p.Busy, p.Waiting["prod"]))
	}
	if want := "0s held=1 busy=0 prod=10; 2s held=1 busy=1 prod=7; 4s held=1 busy=1 prod=5"; strings.Join(got, "; ") != want {
		t.Errorf("timeline: %s\nwant %s", strings.Join(got, "; "), want)
	}
	record(t, s, Event{Time: at(5), TaskStarted: &TaskStarted{Stage: 0, Index: 5, Executor: "e1"}}) // within the doubled step
	if n := len(s.Timeline(at(4))); n != 3 {
		t.Errorf("%d points after an event within the doubled step, want 3", n)
	}
	// While the application runs, the chart reaches now; once it ended,
	// its end.
	if tl := s.Timeline(at(9)); len(tl) != 4 || !tl[3].Time.Equal(at(9)) || tl[3].Busy != 1 {
		t.Errorf("the timeline at 9s: %+v, want the point now last", tl)
	}
	record(t, s, Event{Time: at(6), AppEnded: &AppEnded{}})
	if tl := s.Timeline(at(9)); !tl[len(tl)-1].Time.Equal(at(6)) {
		t.Errorf("an ended application's timeline runs to %v, past its end", tl[len(tl)-1].Time)
	}
}

// Attempts still running as the application ends (its executors went
// with it, reporting nothing) end killed, in their stage's and
// executor's counts.
func TestTheApplicationsEndKillsWhatStillRuns(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	record(t, s, Event{Time: at(10), AppEnded: &AppEnded{Diagnostics: "stopped"}})
	st, _ := s.Stage(at(20), 0)
	if got, want := stageLine(st), "0 fit failed done=1 running=0 waiting=0 failed=1 listed=3"; got != want || st.KilledAttempts != 2 || st.Ended == nil || !st.Ended.Equal(at(10)) {
		t.Errorf("stage: %s, %d killed, ended %v; want %s, 2 killed, ended at 10s", got, st.KilledAttempts, st.Ended, want)
	}
	p, _ := s.Tasks(at(20), 0, TaskQuery{State: TaskKilled, Length: 10})
	if p.Total != 2 || p.Tasks[0].Reason != "the application ended" || p.Tasks[0].DurationS != 4 {
		t.Errorf("killed tasks: %+v", p)
	}
	if x := s.Executors(at(20))[0]; x.Running != 0 || x.Killed != 2 {
		t.Errorf("executor e1: %d running, %d killed; want 0, 2", x.Running, x.Killed)
	}
}

// A task launched again with no end told of its last attempt (written
// off with its executor) runs once, not twice; an executor gone may
// come back under its name.
func TestAStoreCountsARelaunchOnce(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	record(t, s, Event{Time: at(9), ExecutorRemoved: &ExecutorRemoved{ID: "e1", Reason: "lost", Lost: true}},
		Event{Time: at(9), ExecutorAdded: &ExecutorAdded{ID: "e2", Host: "n2"}},
		Event{Time: at(9), TaskStarted: &TaskStarted{Stage: 0, Index: 2, Attempt: 1, Executor: "e2"}},
		Event{Time: at(9), TaskStarted: &TaskStarted{Stage: 0, Index: 1, Attempt: 2, Executor: "gone"}},
		Event{Time: at(9), TaskStarted: &TaskStarted{Stage: 0, Index: 1, Attempt: 3, Executor: "e2"}})
	st, _ := s.Stage(at(10), 0)
	if st.Running != 2 {
		t.Errorf("%d running after tasks 1 and 2 were launched again, want 2", st.Running)
	}
	var got []string
	for _, x := range s.Executors(at(10)) {
		got = append(got, fmt.Sprintf("%s %s running=%d", x.ID, x.State, x.Running))
	}
	// e1's attempts were launched again elsewhere: it runs none of them.
	if want := "e1 lost running=0; e2 lost running=0; e2 active running=2"; strings.Join(got, "; ") != want {
		t.Errorf("executors: %s\nwant %s", strings.Join(got, "; "), want)
	}
}

// A listed task is 40 bytes (docs/ui.md says what 100,000 cost).
func TestATaskIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(task{}); n != 40 {
		t.Errorf("a task is %d bytes, want 40", n)
	}
}
