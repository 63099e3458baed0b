package am

import (
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The loop journals, for the AM's next attempt (am/journal,
// docs/reliability.md), each job submitted, each task that succeeded (a
// gang's tasks once their whole run has: core.DoneOnReport), each
// failure counted against a task, each job that ended, each executor
// that registered with a rejoin address and its container's end, and each
// drain begun or undone. The journal's writer takes them without waiting
// and writes them from its own goroutine.

func (d *Driver) journalJob(id scheduler.JobID, spec *jobspec.Job) {
	if d.cfg.Journal == nil {
		return
	}
	data, err := spec.MarshalSpec()
	stages := d.core.JobStages(id)
	if err != nil || len(stages) == 0 {
		d.log.WithError(err).WithField("job", id).Error("journal: the job is not journalled; the next attempt cannot resume it")
		return
	}
	e := journal.Job{ID: int(id), FirstStage: int(stages[0]), Spec: data}
	for _, p := range d.core.StageProfiles(id) {
		e.StageProfiles = append(e.StageProfiles, int(p))
	}
	for _, p := range d.core.StageShapes(id) {
		e.StageShapes = append(e.StageShapes, journal.Shape{Cores: p.Cores, MemoryMB: p.MemoryMB, GPUs: p.GPUs})
	}
	d.cfg.Journal.Append(journal.Entry{Job: &e})
}

func (d *Driver) journalSucceeded(b *wire.StatusBatch) {
	if d.cfg.Journal == nil {
		return
	}
	for _, st := range b.GetStatuses() {
		if st.GetState() != wire.Status_SUCCEEDED || !d.core.DoneOnReport(scheduler.StageID(st.GetStageId())) {
			continue
		}
		if job, index, ok := d.core.StageOf(scheduler.StageID(st.GetStageId())); ok {
			d.cfg.Journal.Append(journal.TaskDone(int(job), index, int(st.GetTaskIndex())))
		}
	}
}

// journalGangDone journals the tasks of gangs whose whole run succeeded.
func (d *Driver) journalGangDone(done []core.JobTask) {
	if d.cfg.Journal == nil {
		return
	}
	for _, t := range done {
		d.cfg.Journal.Append(journal.TaskDone(int(t.Job), t.StageIndex, t.Index))
	}
}

// journalFailures journals the failures counted against tasks, one
// entry each: the next attempt counts them again.
func (d *Driver) journalFailures(failed []core.JobTask) {
	if d.cfg.Journal == nil {
		return
	}
	for _, t := range failed {
		d.cfg.Journal.Append(journal.Entry{TaskFailed: &journal.TaskRef{Job: int(t.Job), Stage: t.StageIndex, Index: t.Index}})
	}
}

func (d *Driver) journalEnded(finished []core.Summary) {
	if d.cfg.Journal == nil {
		return
	}
	for _, s := range finished {
		id := int(s.ID)
		d.cfg.Journal.Append(journal.Entry{JobEnded: &id})
	}
}

// journalExecutor journals an executor that registered with a rejoin
// address, with its container as the core holds it.
func (d *Driver) journalExecutor(id scheduler.ExecutorID, reg *wire.Register) {
	if d.cfg.Journal == nil || reg.GetRejoinAddress() == "" {
		return
	}
	if ct, ok := d.core.Container(string(id)); ok {
		d.cfg.Journal.Append(journal.Entry{Executor: &journal.Executor{Container: ct.ID, Address: reg.GetRejoinAddress(),
			Node: ct.Node, NodeName: ct.NodeName, Profile: int(ct.Profile), GPUIndices: ct.GPUIndices, AccelIndices: accelIndices(ct.AccelIndices)}})
	}
}

func (d *Driver) journalGone(container string) {
	if d.cfg.Journal != nil {
		d.cfg.Journal.Append(journal.Entry{ExecutorGone: container})
	}
}

// journalDrains journals the executors that began draining, their plan's
// deadline as an absolute time, and those a recommissioned node took back.
func (d *Driver) journalDrains(started []core.DrainStarted, undrained []scheduler.ExecutorID) {
	if d.cfg.Journal == nil {
		return
	}
	for _, s := range started {
		e := journal.Drain{Container: string(s.Executor), Reason: s.Reason, Decommissioning: s.Decommissioning}
		if !s.ReleaseBy.IsZero() {
			e.ReleaseBy = s.ReleaseBy.UnixMilli()
		}
		d.cfg.Journal.Append(journal.Entry{Drain: &e})
	}
	for _, id := range undrained {
		d.cfg.Journal.Append(journal.Entry{Undrained: string(id)})
	}
}
