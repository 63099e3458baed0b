package settings

import (
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// labelStages gives each stage that names a node label (`nodeLabel:` in
// its spec) or a placement (`placement:`) executors of its own: a profile
// of its shape with that label and placement, shared by the stages of one
// shape, label and placement. Stages of one profile but different labels
// or placements so never share executors, which YARN asks for on one
// label and under one constraint each; the others keep theirs, asked
// with the application's label and placement
// (spindle.yarn.executor.nodeLabelExpression, .placement, .maxPerNode).
func labelStages(profiles []scheduler.Profile, stages []scheduler.ProfileID, job *jobspec.Job) ([]scheduler.Profile, []scheduler.ProfileID) {
	if job == nil || len(profiles) == 0 || !anyStageOwnsExecutors(job) {
		return profiles, stages
	}
	out := make([]scheduler.ProfileID, len(job.Stages))
	for i, st := range job.Stages {
		p := profiles[0]
		if stages != nil {
			p = profiles[stages[i]]
		}
		if st.NodeLabel != "" || st.Placement.Set() {
			p.NodeLabel, p.Placement = st.NodeLabel, st.Placement
			profiles, p.ID = core.WithShape(profiles, p)
		}
		out[i] = p.ID
	}
	return profiles, out
}

func anyStageOwnsExecutors(job *jobspec.Job) bool {
	for _, st := range job.Stages {
		if st.NodeLabel != "" || st.Placement.Set() {
			return true
		}
	}
	return false
}

// stageInitial starts, without dynamic allocation, the configured number
// of executors for every profile a stage runs on (none for one that no
// stage uses): with labelled stages that is more than the first profile.
func stageInitial(cc *core.ContainerConfig, stages []scheduler.ProfileID, dynamic bool) {
	if dynamic || stages == nil || cc.Initial == nil {
		return
	}
	n := 0
	for _, v := range cc.Initial {
		n = max(n, v)
	}
	cc.Initial = map[scheduler.ProfileID]int{}
	for _, p := range stages {
		cc.Initial[p] = n
	}
}
