package faultsim

import (
	"context"
	"time"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// journalWait bounds how long a session's answer to a submit waits for
// its job to be journalled (am's journalWait).
const journalWait = 10 * time.Second

// journal appends entries to the attempt's journal, if it has one.
func (a *attempt) journal(entries ...journal.Entry) {
	if a.writer == nil || len(entries) == 0 {
		return
	}
	a.writer.Append(entries...)
	a.poke()
}

// poke has the writer write soon: a segment at most every
// journal.CommitInterval, later after failed writes (journal.Writer.Run,
// on simulated time).
func (a *attempt) poke() {
	if a.flushing || a.writer == nil {
		return
	}
	a.flushing = true
	a.w.at(journal.NextFlush(a.lastFlush, a.failures), a.flush)
}

func (a *attempt) flush() {
	a.flushing = false
	if a.dead {
		return
	}
	a.lastFlush = a.w.now
	err := a.writer.Flush(context.Background())
	if a.dead {
		return
	}
	if err != nil {
		a.failures++
		a.poke() // the writer tries again, whether or not more comes
	} else {
		a.failures = 0
	}
	a.answerSubmits()
}

// pendingAck is a submit answered once its job is journalled, or after
// journalWait without.
type pendingAck struct {
	job      *clientJob
	id       scheduler.JobID
	written  <-chan struct{}
	deadline time.Time
}

// answerSubmits answers the submits whose jobs are journalled, or have
// waited journalWait.
func (a *attempt) answerSubmits() {
	kept := a.acks[:0]
	for _, p := range a.acks {
		done := p.written == nil || !a.w.now.Before(p.deadline)
		if !done {
			select {
			case <-p.written:
				done = true
			default:
			}
		}
		if done {
			a.answer(p)
		} else {
			kept = append(kept, p)
		}
	}
	a.acks = kept
}

func (a *attempt) answer(p pendingAck) {
	w := a.w
	w.after(w.latency(), func() {
		if !a.dead {
			p.job.accepted(a, p.id)
		}
	})
}
