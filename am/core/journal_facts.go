package core

import "github.com/spindle-yarn/spindle/scheduler"

// What the AM journals for its next attempt (am/journal) the caller
// reads off the core with these: a job's stage profiles, where a stage
// sits in its job, which tasks' successes are final, and a live
// container's node, profile and GPU indices.

// StageProfiles are job id's stages' executor profiles, as Submit settled
// them; nil for a job it does not have.
func (c *Core) StageProfiles(id scheduler.JobID) []scheduler.ProfileID {
	j := c.jobs[id]
	if j == nil {
		return nil
	}
	return j.stageProfiles
}

// StageShapes are job id's stages' executor profiles themselves, which
// a session may have added on demand (fit.go); nil for a job it does not
// have.
func (c *Core) StageShapes(id scheduler.JobID) []scheduler.Profile {
	j := c.jobs[id]
	if j == nil {
		return nil
	}
	out := make([]scheduler.Profile, len(j.stageProfiles))
	for i, p := range j.stageProfiles {
		out[i], _ = c.profile(p)
	}
	return out
}

// StageOf says which job a stage is of, and its place among the job's
// stages; ok is false for a stage of no job the core has.
func (c *Core) StageOf(id scheduler.StageID) (job scheduler.JobID, index int, ok bool) {
	st := c.stages[id]
	if st == nil {
		return 0, 0, false
	}
	return st.job.id, st.index, true
}

// Container describes a live container as the next attempt would take
// it over (Kept); ok is false for one that is not live.
func (c *Core) Container(id string) (KeptContainer, bool) {
	if c.yarn == nil {
		return KeptContainer{}, false
	}
	x := c.yarn.live[id]
	if x == nil {
		return KeptContainer{}, false
	}
	return KeptContainer{ID: id, Node: x.node, NodeName: x.name, Profile: x.profile.ID, GPUIndices: x.gpus, AccelIndices: x.accels, Journalled: true}, true
}

// DoneOnReport says whether a task of stage id is done for good when it
// reports success, before the core hears of it: not a gang's, whose
// tasks are done only once every task of their run has succeeded
// (Ready's GangTasksDone lists them then). Journalling a gang task
// sooner would have the AM's next attempt restart the gang without it.
func (c *Core) DoneOnReport(id scheduler.StageID) bool {
	return !c.sched.LaunchesAsGang(id)
}

// JobTask is a task by its job and its stage's place in the job, as the
// journal names it: one whose success is final (GangTasksDone), or one
// that failed (TaskFailures).
type JobTask struct {
	Job scheduler.JobID
	TaskRef
}
