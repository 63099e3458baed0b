package deploy

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// spindle history --text says a gang stage's runs, where its ranks met
// and why it restarted.
func TestHistoryTextSaysAGangsRestarts(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	s := history.NewStore(history.Limits{})
	for _, e := range []history.Event{
		{Time: t0, App: &history.AppStarted{ID: "local-1-aaaaaa", Name: "gang", Master: "local[2]"}},
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-1", Host: "vm"}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 0, Name: "gang", Pool: "default", Stages: []history.StageInfo{{ID: 0, Name: "train", Tasks: 1, Gang: true}}}},
		{Time: t0, GangStarted: &history.GangStarted{Stage: 0, MasterAddr: "vm", MasterPort: 29500}},
		{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 0, Executor: "exec-1"}},
		{Time: t0.Add(time.Second), TaskEnded: &history.TaskEnded{Stage: 0, Index: 0, Executor: "exec-1", State: history.TaskFailed, ExitCode: 1, Reason: "exit status 1"}},
		{Time: t0.Add(2 * time.Second), GangStarted: &history.GangStarted{Stage: 0, MasterAddr: "vm", MasterPort: 29501}},
	} {
		if err := s.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	writeHistory(&out, s)
	if want := "\n      gang: 2 runs at vm:29501, 1 restart: rank 0 exited 1\n"; !strings.Contains(out.String(), want) {
		t.Errorf("spindle history --text has no %q:\n%s", want, out.String())
	}
}
