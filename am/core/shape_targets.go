package core

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// onDemand says whether profile p is a stage shape held only while its
// stages need it: in coarse mode on YARN, every profile but the default.
// Fine mode's profiles already follow their tasks (limitToTasks).
func (c *Core) onDemand(p scheduler.ProfileID) bool {
	return c.yarn != nil && !c.cfg.OneTaskPerExecutor && p != c.cfg.Profiles[0].ID
}

// shapeTargets, without dynamic allocation, sets each stage shape's
// target to the executors its running and waiting tasks fill, at most
// its Initial count, or else the default profile's
// (spindle.executor.instances), and
// stops its idle executors beyond that at once: a shape's executors are
// asked for when its stage has tasks to run and given back as soon as no
// task of it needs them. With dynamic allocation the targets are its, as
// for any profile (dynalloc.Profile.OnDemand).
func (c *Core) shapeTargets(now time.Time) {
	if c.yarn == nil || c.alloc != nil {
		return
	}
	idle := map[scheduler.ProfileID][]scheduler.ExecutorID{}
	for _, st := range c.sched.Executors() {
		if st.Running == 0 {
			idle[st.Profile] = append(idle[st.Profile], st.ID)
		}
	}
	for _, p := range c.cfg.Profiles {
		if !c.onDemand(p.ID) {
			continue
		}
		need := 0
		for _, d := range c.sched.Demand(now, p.ID) {
			need += (d.Running + d.Pending + max(d.TasksPerExecutor, 1) - 1) / max(d.TasksPerExecutor, 1)
		}
		limit, ok := c.yarn.cfg.Initial[p.ID]
		if !ok {
			limit = c.yarn.cfg.Initial[c.cfg.Profiles[0].ID]
		}
		target := min(need, max(limit, 1))
		if old := c.yarn.targets[p.ID]; old != target {
			c.notice(Notice{Message: fmt.Sprintf("stage shape: profile %d target %d → %d executors", p.ID, old, target)})
		}
		c.yarn.targets[p.ID] = target
		surplus := c.yarn.liveOf(p.ID) - c.yarn.wanted(p.ID) // a gang acquiring may want more
		for _, id := range idle[p.ID] {
			if x := c.execs[id]; x != nil && surplus > 0 && x.stopping == "" {
				c.stop(x, "idle: no task of its stage shape needs it")
				surplus--
			}
		}
	}
}

// restoreShapes adds again, under the ids the journal gives them, the
// profiles an earlier attempt added on demand for job j's stages (a
// session's, fit.go), with the shapes the journal gives them, so that
// the kept containers and the stages to run find the profiles they had.
// A journal of before, with no shapes, has each derived again from its
// stage alone: the same shape, unless that stage had been fitted onto a
// larger one another job made, where it gets its own, which holds its
// tasks as well.
func (c *Core) restoreShapes(j ResumedJob) error {
	if !c.shapesOnDemand() || len(j.StageProfiles) != len(j.Spec.Stages) {
		return nil // Submit names the mismatch
	}
	for i, id := range j.StageProfiles {
		if _, ok := c.profile(id); ok {
			continue
		}
		p := StageShape(c.cfg.Profiles[0], j.Spec.Stages[i])
		if len(j.StageShapes) == len(j.StageProfiles) {
			p = j.StageShapes[i]
		}
		p.ID = id
		if err := c.addProfile(p); err != nil {
			return err
		}
	}
	return nil
}
