package history

import (
	"reflect"
	"testing"
)

// An executor's and an attempt's accelerators besides GPUs are shown
// with their addresses, and a snapshot (what `spindle history` reads
// after a compaction) keeps them.
func TestAcceleratorsShowWhereGPUsDo(t *testing.T) {
	fpga := []Resource{{Name: "fpga", Addresses: []string{"0", "1"}}}
	s := NewStore(Limits{})
	record(t, s,
		Event{Time: at(0), App: &AppStarted{ID: "local-1", Master: "local[1]"}},
		Event{Time: at(1), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1", Cores: 2, Accels: fpga}},
		Event{Time: at(2), JobSubmitted: &JobSubmitted{ID: 0, Name: "j", Stages: []StageInfo{{ID: 0, Name: "s", Tasks: 1}}}},
		Event{Time: at(3), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Executor: "e1", Accels: []Resource{{Name: "fpga", Addresses: []string{"1"}}}}},
		Event{Time: at(4), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Executor: "e1", State: TaskSucceeded}},
	)
	check := func(s *Store, what string) {
		t.Helper()
		if xs := s.Executors(at(5)); len(xs) != 1 || !reflect.DeepEqual(xs[0].Accels, fpga) {
			t.Errorf("%s: executors %+v, want e1 with fpga 0,1", what, xs)
		}
		p, _ := s.Tasks(at(5), 0, TaskQuery{Length: 10})
		if len(p.Tasks) != 1 || !reflect.DeepEqual(p.Tasks[0].Accels, []Resource{{Name: "fpga", Addresses: []string{"1"}}}) {
			t.Errorf("%s: tasks %+v, want task 0 with fpga 1", what, p.Tasks)
		}
	}
	check(s, "recorded")
	again := NewStore(Limits{})
	record(t, again, s.Snapshot()...)
	check(again, "from a snapshot")
}

// Every attempt kept shows its own accelerators, the earlier ones too.
func TestEveryAttemptShowsItsAccelerators(t *testing.T) {
	s := NewStore(Limits{})
	record(t, s,
		Event{Time: at(0), App: &AppStarted{ID: "local-1", Master: "local[1]"}},
		Event{Time: at(1), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1", Cores: 2}},
		Event{Time: at(2), JobSubmitted: &JobSubmitted{ID: 0, Name: "j", Stages: []StageInfo{{ID: 0, Name: "s", Tasks: 1}}}},
		Event{Time: at(3), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Executor: "e1", Accels: []Resource{{Name: "fpga", Addresses: []string{"0"}}}}},
		Event{Time: at(4), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Executor: "e1", State: TaskFailed, ExitCode: 1, Reason: "exit status 1"}},
		Event{Time: at(5), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Attempt: 1, Executor: "e1", Accels: []Resource{{Name: "fpga", Addresses: []string{"1"}}}}},
	)
	v, ok := s.Task(at(6), 0, 0)
	if !ok || len(v.Kept) != 2 {
		t.Fatalf("task 0: %+v, want 2 attempts", v)
	}
	for i, want := range []string{"0", "1"} {
		if got := v.Kept[i].Accels; len(got) != 1 || got[0].Name != "fpga" || len(got[0].Addresses) != 1 || got[0].Addresses[0] != want {
			t.Errorf("attempt %d: accels %+v, want fpga %s", i, got, want)
		}
	}
}
