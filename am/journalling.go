package am

import (
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The loop journals, for the AM's next attempt (am/journal,
// docs/reliability.md), each job submitted, each task that succeeded (a
// gang's tasks once their whole run has: core.DoneOnReport), each
// failure counted against a task, each job that ended, and each executor
// that registered with a rejoin address and its container's end: which
// entries, package handover says. The journal's writer takes them
// without waiting and writes them from its own goroutine.

// journal appends entries to the journal, if there is one.
func (d *Driver) journal(entries ...journal.Entry) {
	if d.cfg.Journal != nil && len(entries) > 0 {
		d.cfg.Journal.Append(entries...)
	}
}

func (d *Driver) journalJob(id scheduler.JobID, spec *jobspec.Job) {
	if d.cfg.Journal == nil {
		return
	}
	e, err := handover.Job(d.core, id, spec)
	if err != nil {
		d.log.WithError(err).WithField("job", id).Error("journal: the job is not journalled; the next attempt cannot resume it")
		return
	}
	d.journal(e)
}

// journalExecutor journals an executor that registered with a rejoin
// address, with its container as the core holds it.
func (d *Driver) journalExecutor(id scheduler.ExecutorID, address string) {
	if e, ok := handover.Executor(d.core, id, address); ok {
		d.journal(e)
	}
}

// journalTurn journals what a batch of Ready says is final: gangs' tasks
// done, failures counted, jobs ended.
func (d *Driver) journalTurn(rd *core.Ready) { d.journal(handover.Turn(rd)...) }
