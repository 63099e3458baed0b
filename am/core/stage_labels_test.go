package core_test

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A stage naming a node label runs on YARN only on executors asked with
// it: a session on YARN, whose executors carry no label, refuses it,
// saying so; a local one (no containers, no nodes) runs it.
func TestSessionRefusesALabelledStageOnYARN(t *testing.T) {
	job := &jobspec.Job{Name: "j", Source: "test", Stages: []jobspec.Stage{{Name: "s", Tasks: 1, CPUs: 1, Command: []string{"true"}, NodeLabel: "gpu-t4"}}}
	yarnSession, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := yarnSession.Core.Submit(yarnSession.Now, job, nil); err == nil || !strings.Contains(err.Error(), "on nodes labelled gpu-t4") {
		t.Errorf("a YARN session took a labelled stage: %v", err)
	}
	local := newSession(t, 1, core.SessionLimits{})
	if _, err := local.Core.Submit(local.Now, job, nil); err != nil {
		t.Errorf("a local session refused a labelled stage: %v", err)
	}
}
