package faultsim

import (
	"fmt"
	"maps"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// knowledge is what an attempt knows of the tasks' successes, for the
// first invariant: it must not run again a task it heard succeed, nor
// one the journal it read has done, nor one whose success an executor
// it was waiting for brought back.
type knowledge struct {
	// heard are the tasks whose success it took from an executor it had
	// not written off; inherited those done in the journal it read.
	heard     map[taskKey]bool
	inherited map[taskKey]bool
	// heardAt is when it first heard each of heard; tookJournal: it took
	// over a journal it read (none, refused or given up on: it did not).
	heardAt     map[taskKey]time.Time
	tookJournal bool
	// counted are the failures counted against each task, as this
	// attempt's journal has them: those of the journal it took over,
	// and those its core counted since.
	counted map[taskKey]int
	// launches are when it launched each task.
	launches map[taskKey][]time.Time
	// writtenOff are the executors its core let go of: their reports
	// change nothing there.
	writtenOff map[string]bool
	// rejoinedAt is when each kept executor registered again; batched
	// those whose first batch since came.
	rejoinedAt map[string]time.Time
	batched    map[string]bool
}

func newKnowledge() knowledge {
	return knowledge{heard: map[taskKey]bool{}, inherited: map[taskKey]bool{}, heardAt: map[taskKey]time.Time{}, counted: map[taskKey]int{}, launches: map[taskKey][]time.Time{},
		writtenOff: map[string]bool{}, rejoinedAt: map[string]time.Time{}, batched: map[string]bool{}}
}

func (k *knowledge) inherit(h *history) {
	k.tookJournal = true
	for t := range h.durable {
		k.inherited[t] = true
	}
	maps.Copy(k.counted, h.durableFailures)
}

// knows says whether the attempt knows task t succeeded.
func (k *knowledge) knows(t taskKey) bool { return k.heard[t] || k.inherited[t] }

// heardFrom takes an executor's reports, but those of an executor the
// core wrote off (its node lost, say) and, from an executor of a
// container an RM that restarted named late, a success of a task the
// attempt launched before (docs/reliability.md, "What is not survived":
// the task started meanwhile runs on). The first batch of one that
// rejoined says what succeeded while it had no AM, or what it sent the
// last one lately: the attempt waited for it (core.Core.Kept) if it
// came within the adoption wait, and must not have launched those
// tasks meanwhile.
func (a *attempt) heardFrom(id string, sts []status) {
	first := false
	if r, ok := a.rejoinedAt[id]; ok && !a.batched[id] {
		a.batched[id] = true
		first = !r.After(a.named[id].Add(a.w.s.Adopt))
	}
	for _, s := range sts {
		if s.st.State != core.TaskSucceeded {
			continue
		}
		if first {
			a.checkWaited(id, s.key)
		}
		if !a.writtenOff[id] && !a.launchedBefore(s.key, a.named[id]) {
			if !a.heard[s.key] {
				a.heardAt[s.key] = a.w.now
			}
			a.heard[s.key] = true
		}
	}
}

// checkWaited: a launch of t after the attempt took over executor id's
// container, before id's first batch said t had succeeded, within the
// adoption wait, placed a task the hold should have held.
func (a *attempt) checkWaited(id string, t taskKey) {
	named := a.named[id]
	for _, at := range a.launches[t] {
		if !at.Before(named) && at.Before(named.Add(a.w.s.Adopt)) {
			a.w.h.violate(SucceededRunsAgain, fmt.Sprintf("attempt %d launched %s at %v, while it waited for executor %s (taken over at %v), "+
				"whose first batch then said it had succeeded", a.n, t, at.Sub(epoch), id, named.Sub(epoch)))
			return
		}
	}
}

func (t taskKey) String() string { return fmt.Sprintf("%s/s%d/t%d", t.job, t.stage, t.index) }

// launchedBefore says whether the attempt launched task t before named
// (zero: never before).
func (k *knowledge) launchedBefore(t taskKey, named time.Time) bool {
	for _, at := range k.launches[t] {
		if at.Before(named) {
			return true
		}
	}
	return false
}
