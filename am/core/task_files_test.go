package core_test

import (
	"slices"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A launch names its job by id and its stage by its place in the job's
// spec, which name the attempt's files; the summary's list of cut
// outputs names the same files. In a session the second job's second
// stage is session-wide stage 2, but its files say job 1, stage 1.
func TestLaunchesNameTheJobAndTheStageInIt(t *testing.T) {
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Register(t, "e1", 1)
	first := h.Submit(t, "first", 1, jobspec.Defaults{}, "true")
	rd := h.Ready()
	if len(rd.Launches) != 1 || rd.Launches[0].JobID != first || rd.Launches[0].StageIndex != 0 {
		t.Fatalf("first job's launches %+v: want one of job %d, stage 0", rd.Launches, first)
	}
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	h.Ready()

	spec, err := jobspec.Parse([]byte("name: two\nstages:\n  - {name: a, tasks: 1, command: \"true\"}\n  - {name: b, tasks: 1, after: [a], command: \"true\"}\n"), "two.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := h.Core.Submit(h.Now, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	rd = h.Ready()
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	rd = h.Ready()
	if len(rd.Launches) != 1 {
		t.Fatalf("stage b: %d launches, want 1", len(rd.Launches))
	}
	l := rd.Launches[0]
	if l.JobID != second || second != 1 || l.StageIndex != 1 || l.Stage != "b" || l.Attempt.Task.Stage != 2 {
		t.Fatalf("stage b's launch: job %d, stage index %d (%s), stage id %d; want job 1, index 1 (b), id 2", l.JobID, l.StageIndex, l.Stage, l.Attempt.Task.Stage)
	}
	h.Core.Statuses(h.Now, "e1", []core.TaskStatus{{Attempt: l.Attempt, State: core.TaskSucceeded, StderrCut: true}})
	rd = h.Ready()
	if len(rd.Finished) != 1 || !slices.Equal(rd.Finished[0].OutputCut, []string{"e1/job1-stage1-task0-attempt0.stderr"}) {
		t.Fatalf("finished %+v: want job two with e1/job1-stage1-task0-attempt0.stderr cut", rd.Finished)
	}
}
