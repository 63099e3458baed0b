package core_test

import (
	"fmt"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Ready.Removed says, for the application's history, each executor the
// core let go and why: lost when nobody asked it to go, not when its
// one task ended (fine-grained mode).
func TestReadySaysWhichExecutorsWentAndWhy(t *testing.T) {
	h, err := coretest.New(core.Config{OneTaskPerExecutor: true, Profiles: []scheduler.Profile{{Cores: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Register(t, "e1", 1)
	h.Register(t, "e2", 1)
	h.Submit(t, "j", 2, jobspec.Defaults{}, "true")
	rd := h.Ready()
	if len(rd.Launches) != 2 {
		t.Fatalf("%d launches", len(rd.Launches))
	}
	h.Core.Statuses(h.Now, rd.Launches[0].Executor, []core.TaskStatus{{Attempt: rd.Launches[0].Attempt, State: core.TaskSucceeded}})
	h.Core.ConnectionEnded(h.Now, rd.Launches[1].Executor, "EOF")
	var got []string
	for _, r := range h.Ready().Removed {
		got = append(got, fmt.Sprintf("%s lost=%v: %s", r.Executor, r.Lost, r.Reason))
	}
	want := fmt.Sprintf("[%s lost=false: its one task ended (fine-grained mode) %s lost=true: connection ended: EOF]", rd.Launches[0].Executor, rd.Launches[1].Executor)
	if fmt.Sprint(got) != want {
		t.Errorf("Removed %v\nwant %s", got, want)
	}
}
