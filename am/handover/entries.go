package handover

import (
	"fmt"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The loop journals, for the AM's next attempt (am/journal), each job
// submitted, each task that succeeded (a gang's tasks once their whole
// run has: core.DoneOnReport), each failure counted against a task, each
// job that ended, each executor that registered with a rejoin address
// and its container's end, and each drain begun or undone. These say which entries, from what
// the core holds; the caller appends them to its journal.Writer.

// Job is the entry of job id, just submitted to core c with spec.
func Job(c *core.Core, id scheduler.JobID, spec *jobspec.Job) (journal.Entry, error) {
	data, err := spec.MarshalSpec()
	if err != nil {
		return journal.Entry{}, err
	}
	stages := c.JobStages(id)
	if len(stages) == 0 {
		return journal.Entry{}, fmt.Errorf("the core has no job %d", id)
	}
	e := journal.Job{ID: int(id), FirstStage: int(stages[0]), Spec: data}
	for _, p := range c.StageProfiles(id) {
		e.StageProfiles = append(e.StageProfiles, int(p))
	}
	for _, p := range c.StageShapes(id) {
		e.StageShapes = append(e.StageShapes, shapeOf(p))
	}
	return journal.Entry{Job: &e}, nil
}

// Succeeded are the entries of the tasks whose reports of success, sts,
// make them done for good: journalled before core c hears of them,
// which decides (DoneOnReport) as it does when they come.
func Succeeded(c *core.Core, sts []core.TaskStatus) []journal.Entry {
	var out []journal.Entry
	for _, st := range sts {
		if st.State != core.TaskSucceeded || !c.DoneOnReport(st.Attempt.Task.Stage) {
			continue
		}
		if job, index, ok := c.StageOf(st.Attempt.Task.Stage); ok {
			out = append(out, journal.TaskDone(int(job), index, st.Attempt.Task.Index))
		}
	}
	return out
}

// Turn are the entries of a batch of Ready: the tasks of gangs whose
// whole run succeeded, the failures counted against tasks (one entry
// each: the next attempt counts them again), the drains begun and
// undone (Drains), and the jobs that ended.
func Turn(rd *core.Ready) []journal.Entry {
	var out []journal.Entry
	for _, t := range rd.GangTasksDone {
		out = append(out, journal.TaskDone(int(t.Job), t.StageIndex, t.Index))
	}
	for _, t := range rd.TaskFailures {
		out = append(out, journal.Entry{TaskFailed: &journal.TaskRef{Job: int(t.Job), Stage: t.StageIndex, Index: t.Index}})
	}
	out = append(out, Drains(rd.DrainsStarted, rd.Undrained)...)
	for _, s := range rd.Finished {
		id := int(s.ID)
		out = append(out, journal.Entry{JobEnded: &id})
	}
	return out
}

// Executor is the entry of executor id, just registered with core c,
// with its rejoin address; false when there is none to journal (no
// address: it cannot be reached again; no live container).
func Executor(c *core.Core, id scheduler.ExecutorID, address string) (journal.Entry, bool) {
	if address == "" {
		return journal.Entry{}, false
	}
	ct, ok := c.Container(string(id))
	if !ok {
		return journal.Entry{}, false
	}
	return journal.Entry{Executor: &journal.Executor{Container: ct.ID, Address: address, Node: ct.Node, NodeName: ct.NodeName,
		Profile: int(ct.Profile), GPUIndices: ct.GPUIndices, AccelIndices: AccelIndices(ct.AccelIndices)}}, true
}

// Gone is the entry of a container that ended: its executor cannot be
// reached again.
func Gone(container string) journal.Entry { return journal.Entry{ExecutorGone: container} }
