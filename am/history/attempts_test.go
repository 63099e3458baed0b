package history

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func attemptLine(a AttemptView) string {
	return fmt.Sprintf("%d %s %s@%s %v %.0fs exit=%d %q %s", a.Attempt, a.State, a.Executor, a.Host, a.GPUs, a.DurationS, a.ExitCode, a.Reason, a.File)
}

func attemptLines(t TaskAttempts) string {
	var out []string
	for _, a := range t.Kept {
		out = append(out, attemptLine(a))
	}
	return strings.Join(out, "; ")
}

// A task run again keeps its earlier attempt: where it ran, how it
// ended and its files' name, on the task's own query and, as links, in
// its stage's list.
func TestAStoreKeepsEveryAttempt(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	got, ok := s.Task(at(10), 0, 1)
	if !ok {
		t.Fatal("no task 1")
	}
	want := `0 failed e2@n2 [0] 3s exit=3 "exit status 3" job0-stage0-task1-attempt0; 1 running e1@n1 [1] 4s exit=0 "" job0-stage0-task1-attempt1`
	if attemptLines(got) != want || got.Attempts != 2 || got.Dropped != 0 {
		t.Errorf("task 1: %d attempts, %d dropped: %s\nwant 2, 0: %s", got.Attempts, got.Dropped, attemptLines(got), want)
	}
	p, _ := s.Tasks(at(10), 0, TaskQuery{Length: 10})
	if e := p.Tasks[1].Earlier; len(e) != 1 || e[0] != (EarlierAttempt{Attempt: 0, State: TaskFailed, Executor: "e2", File: "job0-stage0-task1-attempt0"}) {
		t.Errorf("task 1's earlier attempts in its stage's list: %+v", e)
	}
	if e := p.Tasks[0].Earlier; e != nil {
		t.Errorf("task 0 ran once, yet lists earlier attempts %+v", e)
	}
	if _, ok := s.Task(at(10), 0, 3); ok {
		t.Error("a task past the stage's end")
	}
	if got, _ := s.Task(at(10), 1, 0); got.Attempts != 0 || len(got.Kept) != 0 {
		t.Errorf("a task never run: %+v", got)
	}
}

// A task tried more than RetainedAttempts times keeps its first attempt
// and its latest, counting those between; it holds no more than
// RetainedAttempts extras however often it ran.
func TestAStoreKeepsTheFirstAndTheLatestAttempts(t *testing.T) {
	s := NewStore(Limits{RetainedAttempts: 3})
	record(t, s, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1"}},
		Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Name: "s", Tasks: 1}}}})
	for a := range 6 {
		record(t, s, Event{Time: at(float64(a)), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Attempt: a, Executor: "e1", GPUs: []string{fmt.Sprint(a)}}},
			Event{Time: at(float64(a) + 0.5), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Attempt: a, Executor: "e1", State: TaskFailed, ExitCode: 1, Reason: fmt.Sprint("try ", a)}})
	}
	got, _ := s.Task(at(9), 0, 0)
	var kept []string
	for _, a := range got.Kept {
		kept = append(kept, fmt.Sprintf("%d %v %s", a.Attempt, a.GPUs, a.Reason))
	}
	if strings.Join(kept, "; ") != "0 [0] try 0; 4 [4] try 4; 5 [5] try 5" || got.Attempts != 6 || got.Dropped != 3 {
		t.Errorf("kept %q of %d, %d dropped; want attempts 0, 4 and 5 of 6, 3 dropped", kept, got.Attempts, got.Dropped)
	}
	if n := len(s.stages[0].extras); n > 3 {
		t.Errorf("%d extras for 3 attempts kept", n)
	}
	one := NewStore(Limits{RetainedAttempts: 1})
	record(t, one, Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Tasks: 1}}}},
		Event{Time: at(1), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Attempt: 0}},
		Event{Time: at(2), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Attempt: 1}})
	if got, _ := one.Task(at(3), 0, 0); len(got.Kept) != 1 || got.Kept[0].Attempt != 1 || got.Dropped != 1 {
		t.Errorf("keeping one attempt: %+v", got)
	}
}

// An attempt whose end was never told (its executor written off) ends,
// killed, as its task's next attempt starts: it runs no more.
func TestAnAttemptLaunchedAgainEnds(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, script()...)
	record(t, s, Event{Time: at(9), TaskStarted: &TaskStarted{Stage: 0, Index: 2, Attempt: 1, Executor: "e1"}})
	got, _ := s.Task(at(10), 0, 2)
	if len(got.Kept) != 2 || got.Kept[0].State != TaskKilled || got.Kept[0].Reason != "launched again before its end was told" || got.Kept[0].DurationS != 1 {
		t.Errorf("task 2: %s", attemptLines(got))
	}
}

// An event log written before attempts were kept (the same events, as
// their lines were) reads as it did, every attempt of it now kept.
func TestAnOlderEventLogShowsEveryAttempt(t *testing.T) {
	store := newMemStore()
	store.files[segmentName(1)] = []byte(`{"t":"2026-11-26T12:00:00Z","jobSubmitted":{"id":0,"name":"j","pool":"default","stages":[{"id":0,"name":"s","tasks":1}]}}
{"t":"2026-11-26T12:00:01Z","executorAdded":{"id":"exec-1","host":"vm"}}
{"t":"2026-11-26T12:00:01Z","taskStarted":{"stage":0,"index":0,"attempt":0,"executor":"exec-1"}}
{"t":"2026-11-26T12:00:02Z","taskEnded":{"stage":0,"index":0,"attempt":0,"executor":"exec-1","state":"failed","exitCode":1,"reason":"exit status 1"}}
{"t":"2026-11-26T12:00:02Z","taskStarted":{"stage":0,"index":0,"attempt":1,"executor":"exec-1"}}
{"t":"2026-11-26T12:00:03Z","taskEnded":{"stage":0,"index":0,"attempt":1,"executor":"exec-1","state":"succeeded"}}
`)
	s, err := Load(context.Background(), store, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Task(at(9), 0, 0)
	want := `0 failed exec-1@vm [] 1s exit=1 "exit status 1" job0-stage0-task0-attempt0; 1 succeeded exec-1@vm [] 1s exit=0 "" job0-stage0-task0-attempt1`
	if attemptLines(got) != want {
		t.Errorf("task 0: %s\nwant %s", attemptLines(got), want)
	}
}

// A gang stage's attempts are grouped by their number: attempt n of
// each task ran together, the gang's attempt n, which ended as its
// first failed rank did.
func TestAGangsAttemptsAreGrouped(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s, Event{Time: at(0), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1"}},
		Event{Time: at(0), JobSubmitted: &JobSubmitted{ID: 0, Stages: []StageInfo{{ID: 0, Name: "fit", Tasks: 2, Gang: true}, {ID: 1, Name: "eval", Tasks: 1}}}})
	for i := range 2 {
		record(t, s, Event{Time: at(1), TaskStarted: &TaskStarted{Stage: 0, Index: i, Attempt: 0, Executor: "e1", GPUs: []string{fmt.Sprint(i)}}})
	}
	record(t, s, Event{Time: at(2), TaskEnded: &TaskEnded{Stage: 0, Index: 1, Attempt: 0, Executor: "e1", State: TaskFailed, ExitCode: 1, Reason: "exit status 1"}},
		Event{Time: at(3), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Attempt: 0, Executor: "e1", State: TaskKilled, Reason: `gang stage "fit" restarts: task 1 ended: exit status 1`}})
	for i := range 2 {
		record(t, s, Event{Time: at(4), TaskStarted: &TaskStarted{Stage: 0, Index: i, Attempt: 1, Executor: "e1", GPUs: []string{fmt.Sprint(i)}}})
	}
	record(t, s, Event{Time: at(5), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Attempt: 1, Executor: "e1", State: TaskSucceeded}})
	gangs, _ := s.GangAttempts(at(6), 0)
	var got []string
	for _, g := range gangs {
		line := fmt.Sprintf("%d %s %q", g.Attempt, g.State, g.Reason)
		for _, r := range g.Ranks {
			line += fmt.Sprintf(" [%d %s %s]", r.Index, r.State, r.File)
		}
		got = append(got, line)
	}
	want := `0 failed "task 1: exit status 1" [0 killed job0-stage0-task0-attempt0] [1 failed job0-stage0-task1-attempt0]; ` +
		`1 running "" [0 succeeded job0-stage0-task0-attempt1] [1 running job0-stage0-task1-attempt1]`
	if strings.Join(got, "; ") != want {
		t.Errorf("gang attempts:\n%s\nwant\n%s", strings.Join(got, "; "), want)
	}
	if gangs[0].Ended == nil || !gangs[0].Ended.Equal(at(3)) || gangs[1].Ended != nil {
		t.Errorf("the gang's attempts end at %v and %v, want 3s and still running", gangs[0].Ended, gangs[1].Ended)
	}
	if g, ok := s.GangAttempts(at(6), 1); !ok || g != nil {
		t.Errorf("a stage that is no gang: %+v", g)
	}
	if task, _ := s.Task(at(6), 0, 1); !task.Gang {
		t.Error("a gang's task is not said to be one")
	}
}
