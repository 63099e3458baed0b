package webui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
)

// gangStore is a job whose gang stage of 2 ranks ran, lost rank 1 (exit
// 1) and runs again.
func gangStore(t *testing.T) *history.Store {
	s := history.NewStore(history.Limits{})
	ev := []history.Event{
		{Time: t0, App: &history.AppStarted{ID: "local-1", Name: "gang", Master: "local[2]"}},
		{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "exec-1", Host: "h1", Cores: 2, GPUs: []string{"0", "1"}}},
		{Time: t0, JobSubmitted: &history.JobSubmitted{ID: 0, Name: "gang", Stages: []history.StageInfo{{ID: 0, Name: "train", Tasks: 2, GPUs: 1, Cores: 1, Gang: true}}}},
		{Time: t0, GangStarted: &history.GangStarted{Stage: 0, MasterAddr: "h1", MasterPort: 4000}},
		{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 0, Executor: "exec-1", GPUs: []string{"0"}}},
		{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 1, Executor: "exec-1", GPUs: []string{"1"}}},
		{Time: t0.Add(1e9), TaskEnded: &history.TaskEnded{Stage: 0, Index: 1, Executor: "exec-1", State: history.TaskFailed, ExitCode: 1, Reason: "exit status 1"}},
		{Time: t0.Add(1e9), TaskEnded: &history.TaskEnded{Stage: 0, Index: 0, Executor: "exec-1", State: history.TaskKilled, Reason: "killed"}},
		{Time: t0.Add(2e9), GangStarted: &history.GangStarted{Stage: 0, MasterAddr: "h1", MasterPort: 4001}},
		{Time: t0.Add(2e9), TaskStarted: &history.TaskStarted{Stage: 0, Index: 0, Attempt: 1, Executor: "exec-1", GPUs: []string{"1"}}},
	}
	for _, e := range ev {
		if err := s.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A gang stage's page and resource show its ranks, where they meet, its
// restarts with why and the failed rank's output, and while it waits
// what it lacks; another stage's show no gang.
func TestAGangStageShowsItsRanksAndRestarts(t *testing.T) {
	h := Handler(Options{Store: gangStore(t), Base: "/b", TaskFiles: t.TempDir(), Now: func() time.Time { return t0.Add(3e9) }})
	_, body := get(t, h, "GET", "/stages/0")
	for _, want := range []string{
		`<code id="gang-master">h1:4001</code>`,
		`<span id="gang-restarts">1 restart</span>`,
		`<td>rank 1 exited 1</td><td> <a href="/b/logs/exec-1/job0-stage0-task1-attempt0.stdout">stdout</a>`,
		`<tr class="gang-rank"><td class="n">0</td><td class="state-running">running</td><td class="n">2</td><td>exec-1</td><td>h1</td><td>1</td></tr>`,
		`<tr class="gang-rank"><td class="n">1</td><td class="state-failed">failed</td><td class="n">1</td>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the gang stage's page has no %s:\n%s", want, body)
		}
	}
	var st Stage
	_, body = get(t, h, "GET", "/api/v1/stages/0")
	if err := json.Unmarshal([]byte(body), &st); err != nil || st.GangRuns == nil || st.GangRuns.Master != "h1:4001" || len(st.GangRuns.Restarts) != 1 ||
		st.GangRuns.Restarts[0].Reason != "rank 1 exited 1" || len(st.GangRuns.Ranks) != 2 {
		t.Errorf("the gang stage's resource: %v\n%s", err, body)
	}
	if _, body := get(t, handler(twoPools(t, 2, 0), nil), "GET", "/api/v1/stages/0"); strings.Contains(body, `"gangRuns"`) {
		t.Errorf("a stage that is no gang shows one: %s", body)
	}

	why := "gang of 2 × 1 cpu, 1 GPU: 1 of 2 slots free, times out in 12s"
	live := func(context.Context) (core.Status, error) {
		return core.Status{Jobs: []core.JobStatus{{ID: 0, Waiting: []core.WaitingStage{{Stage: "other", Why: "no"}, {Stage: "train", Pending: 2, Why: why}}}}}, nil
	}
	h = Handler(Options{Store: gangStore(t), Live: live, Now: func() time.Time { return t0.Add(3e9) }})
	if _, body := get(t, h, "GET", "/stages/0"); !strings.Contains(body, `<p class="why" id="gang-waiting">Waiting: `+why+`</p>`) {
		t.Errorf("the waiting gang's page does not say what it lacks:\n%s", body)
	}
}
