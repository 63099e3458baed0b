package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// An executor of a container YARN kept from an earlier AM attempt may
// still run that attempt's tasks: a task of a job this attempt resumed,
// or of the job it runs again from the start. No task is placed until
// every such container is accounted for: its executor registered again
// and said what it still runs (adopted: resume.go), or the container is
// known gone. A kept container this attempt cannot reach (the journal
// does not name its executor: no journal, or one refused), or whose
// executor did not register again in time, is released, and placement
// waits on until its NodeManager says it stopped (Ready.StopKept,
// KeptStopped), its executor and the tasks under it ended
// (docs/containment.md). The RM's word that a released container
// completed does not do: it comes as soon as the RM has it, before the
// NodeManager has even heard of the release. The wait is bounded: an
// executor no attempt reached stops its tasks itself once its rejoin
// timeout has passed, so by then nothing of it runs whatever anyone says.

// KeptContainer is an executor container of an earlier attempt that YARN
// kept for this one, with what the journal says of it.
type KeptContainer struct {
	ID, Node, NodeName string
	Profile            scheduler.ProfileID
	GPUIndices         []string
	AccelIndices       []scheduler.Assigned
	// Journalled says the journal knows its executor. Without that the
	// AM has no address to reach it at: the container is released.
	Journalled bool
	// Drain, when set, is the drain the journal says its executor was
	// on (drain_journal.go).
	Drain *KeptDrain
}

// RunningAttempt is an attempt a rejoining executor still runs, by the
// ids the attempt that launched it gave, which Resume keeps.
type RunningAttempt struct {
	Attempt scheduler.AttemptID
	GPUs    []string
	Accels  []scheduler.Assigned
}

// takeover is where taking over the kept containers stands.
type takeover struct {
	// awaiting are the kept containers whose executors have not
	// registered again; placement waits for them until awaitUntil.
	awaiting   map[scheduler.ExecutorID]bool
	awaitUntil time.Time
	// released are the kept containers released and not yet known
	// stopped; placement waits for them until goneBy, stopWait after
	// the last was released (Kept's stopped).
	released map[string]bool
	goneBy   time.Time
	stopWait time.Duration
}

// Kept takes over the containers an earlier attempt ran: they hold their
// GPU indices and count towards their profiles' targets. Until each
// journalled one's executor has registered again and sent its first
// batch of statuses (what ended while it had no driver, maybe none), or
// until wait has passed, no task is placed (a task placed meanwhile
// might be one an executor not yet back still runs); then the
// containers still missing are released and whatever ran there runs
// again. The containers it releases, now or then, hold placement until
// their NodeManagers say they stopped (Ready.StopKept, KeptStopped), or
// for stopped at most: the time by which an executor no attempt reached
// has stopped its tasks itself (its rejoin timeout, and their grace to
// stop). Zero holds nothing.
func (c *Core) Kept(now time.Time, kept []KeptContainer, wait, stopped time.Duration) {
	k := c.yarn
	if k == nil {
		return
	}
	c.kept.stopWait = stopped
	awaited, released := len(c.kept.awaiting), len(c.kept.released)
	for _, ct := range kept {
		prof, ok := c.profile(ct.Profile)
		why := ""
		switch {
		case !ct.Journalled:
			why = "the journal does not name its executor"
		case !ok:
			why = fmt.Sprintf("profile %d is not this configuration's", ct.Profile)
		default:
			if err := k.takeDevices(ct.Node, ct.GPUIndices, ct.AccelIndices); err != nil {
				why = err.Error()
			}
		}
		k.health.seen(ct.Node, ct.NodeName)
		if why != "" {
			c.releaseKept(now, ct.ID, ct.Node, why)
			continue
		}
		k.live[ct.ID] = &container{node: ct.Node, name: ct.NodeName, profile: prof, gpus: ct.GPUIndices, accels: ct.AccelIndices}
		if ct.Drain != nil {
			c.keptDraining(now, ct.ID, *ct.Drain)
		}
		if c.kept.awaiting == nil {
			c.kept.awaiting = map[scheduler.ExecutorID]bool{}
		}
		c.kept.awaiting[scheduler.ExecutorID(ct.ID)] = true
	}
	if len(c.kept.awaiting) > awaited {
		c.kept.awaitUntil = now.Add(wait)
		c.notice(Notice{Message: fmt.Sprintf("awaiting %d executors of the previous attempt for up to %v before placing tasks", len(c.kept.awaiting), wait)})
	}
	c.noticeReleased(released)
}

// releaseKept releases a kept container, and holds placement until it
// is gone.
func (c *Core) releaseKept(now time.Time, id, node, why string) {
	c.yarn.release = append(c.yarn.release, id)
	c.notice(Notice{Warning: true, Container: id, Node: node, Message: "kept container released: " + why})
	t := &c.kept
	if t.stopWait <= 0 {
		return
	}
	if t.released == nil {
		t.released = map[string]bool{}
	}
	t.released[id] = true
	c.rd.StopKept = append(c.rd.StopKept, id)
	if by := now.Add(t.stopWait); by.After(t.goneBy) {
		t.goneBy = by
	}
}

// noticeReleased says placement waits for the kept containers released
// since there were before of them.
func (c *Core) noticeReleased(before int) {
	if n := len(c.kept.released); n > before {
		c.notice(Notice{Message: fmt.Sprintf("placing no task until the %d released containers of the previous attempt have stopped, for up to %v: their executors may still run its tasks", n, c.kept.stopWait)})
	}
}

// KeptStopped says a container the core released (Ready.StopKept) is
// gone: its NodeManager says it completed, its executor and the tasks
// under it ended. A kept one holds placement no more; a written-off
// executor's tasks run again (cut.go).
func (c *Core) KeptStopped(now time.Time, id string) {
	if c.cutGone(now, scheduler.ExecutorID(id), "its NodeManager stopped its container") {
		return
	}
	t := &c.kept
	if !t.released[id] {
		return
	}
	delete(t.released, id)
	if len(t.released) == 0 {
		c.notice(Notice{Message: "the released containers of the previous attempt have stopped"})
	}
}

func (c *Core) profile(id scheduler.ProfileID) (scheduler.Profile, bool) {
	for _, p := range c.cfg.Profiles {
		if p.ID == id {
			return p, true
		}
	}
	return scheduler.Profile{}, false
}

// holding says whether placement waits for kept executors, or for kept
// containers released to be gone.
func (c *Core) holding(now time.Time) bool {
	return c.awaitingKept(now) || c.awaitingGone(now)
}

// awaitingKept says whether placement waits for kept executors; at the
// end of the wait it releases the containers of those that never came.
func (c *Core) awaitingKept(now time.Time) bool {
	t := &c.kept
	if len(t.awaiting) == 0 {
		return false
	}
	if now.Before(t.awaitUntil) {
		return true
	}
	released := len(t.released)
	for _, id := range sortedIDs(t.awaiting) {
		if c.execs[id] != nil {
			continue // back, if quiet since: it goes on as any executor
		}
		if x := c.yarn.forget(string(id)); x != nil {
			c.releaseKept(now, string(id), x.node, "its executor did not register again in time")
		}
	}
	t.awaiting = nil
	c.noticeReleased(released)
	return false
}

// awaitingGone says whether placement waits for released kept
// containers to have stopped; at the end of the wait it waits no more.
func (c *Core) awaitingGone(now time.Time) bool {
	t := &c.kept
	if len(t.released) == 0 {
		return false
	}
	if now.Before(t.goneBy) {
		return true
	}
	c.notice(Notice{Warning: true, Message: fmt.Sprintf("placing tasks: %d released containers of the previous attempt not known stopped in %v; their executors have stopped their tasks by now",
		len(t.released), t.stopWait)})
	t.released = nil
	return false
}

func sortedIDs(m map[scheduler.ExecutorID]bool) []scheduler.ExecutorID {
	ids := make([]scheduler.ExecutorID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
	return ids
}
