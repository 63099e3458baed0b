package history

import (
	"fmt"
	"slices"
	"time"
)

// An event log would grow with every attempt an application ever ran; a
// session runs for weeks. So the writer compacts it: once CompactBytes
// were written since the last snapshot, it writes the Store as it is now
// as a snapshot, and removes the segments before it once the snapshot is
// whole (log_writer.go). The log then holds at most a snapshot, bounded
// as the Store is by Limits, and CompactBytes after it.

// CompactBytes is how much is written after a snapshot before the next.
const CompactBytes = 8 * RollBytes

// Snapshot is the Store as events: a Snapshot mark, then what rebuilds
// it. A Store that records them is this one, its lists and counts alike.
func (s *Store) Snapshot() []Event {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []Event{{}} // the mark, once the count is known
	add := func(at time.Time, e Event) {
		e.Time = at
		out = append(out, e)
	}
	app := s.app
	add(s.started, Event{App: &app})
	if len(s.pools) > 0 {
		add(s.started, Event{Pools: append([]PoolInfo(nil), s.pools...)})
	}
	if len(s.env) > 0 {
		add(s.started, Event{Environment: slices.Clone(s.env)})
	}
	for _, x := range s.execOrder {
		added := x.ExecutorAdded
		add(x.added, Event{ExecutorAdded: &added})
	}
	for _, j := range s.jobOrder {
		js := j.JobSubmitted
		add(j.submitted, Event{JobSubmitted: &js})
		for _, st := range j.stages {
			s.snapshotTasks(st, add)
			c := StageCounts{Stage: st.info.ID, Succeeded: st.succeeded, Running: st.running, Failed: st.failed, Killed: st.killed, Done: st.allEnded}
			if st.firstStarted {
				c.Started = timePtr(st.started)
			}
			if !st.ended.IsZero() {
				c.Ended = timePtr(st.ended)
			}
			add(j.submitted, Event{StageCounts: &c})
			if g := st.gang; g != nil {
				gs := g.GangState
				gs.Restarts = append([]GangRestart(nil), gs.Restarts...)
				add(j.submitted, Event{Gang: &gs})
			}
		}
		if j.state != JobRunning {
			add(j.ended, Event{JobEnded: &JobEnded{ID: j.ID, State: j.state, Reason: j.reason}})
		}
	}
	for _, x := range s.execOrder {
		if x.gone != nil {
			gone := *x.gone
			add(x.removed, Event{ExecutorRemoved: &gone})
		}
		add(x.added, Event{ExecutorCounts: &ExecutorCounts{ID: x.ID, Running: x.running, Succeeded: x.succeeded, Failed: x.failed, Killed: x.killed}})
	}
	if s.end != nil {
		end := *s.end
		add(s.ended, Event{AppEnded: &end})
	}
	last := s.started
	if n := len(s.timeline.points); n > 0 {
		last = s.timeline.points[n-1].Time
	}
	add(last, Event{Timeline: &TimelineState{Points: append([]Point(nil), s.timeline.points...), Step: s.timeline.step}})
	out[0] = Event{Time: s.started, Snapshot: &SnapshotMark{Events: len(out) - 1}}
	return out
}

// snapshotTasks adds each listed task's attempts kept, oldest first:
// each one's start, and its end if it ended.
func (s *Store) snapshotTasks(st *stage, add func(time.Time, Event)) {
	for i := range st.tasks {
		t := &st.tasks[i]
		if t.state == tNone {
			continue
		}
		for j := range st.earlier[i] {
			s.snapshotAttempt(st, i, &st.earlier[i][j], add)
		}
		s.snapshotAttempt(st, i, t, add)
	}
}

func (s *Store) snapshotAttempt(st *stage, index int, t *task, add func(time.Time, Event)) {
	exec := ""
	if x := s.executorOf(t); x != nil {
		exec = x.ID
	}
	extra := st.extraOf(t)
	add(time.UnixMilli(t.start), Event{TaskStarted: &TaskStarted{Stage: st.info.ID, Index: index, Attempt: int(t.attempt), Executor: exec, GPUs: extra.gpus, Accels: extra.accels}})
	if t.state != tRunning {
		add(time.UnixMilli(t.end), Event{TaskEnded: &TaskEnded{Stage: st.info.ID, Index: index, Attempt: int(t.attempt), Executor: exec,
			State: taskStates[t.state], ExitCode: int(t.exit), Reason: extra.reason}})
	}
}

// restore applies a snapshot's own kinds of event.
func (s *Store) restore(e *Event) error {
	switch {
	case e.StageCounts != nil:
		c := e.StageCounts
		st := s.stages[c.Stage]
		if st == nil {
			return fmt.Errorf("counts of stage %d, which is not known", c.Stage)
		}
		st.succeeded, st.running, st.failed, st.killed, st.allEnded = c.Succeeded, c.Running, c.Failed, c.Killed, c.Done
		st.firstStarted, st.started, st.ended = c.Started != nil, time.Time{}, time.Time{}
		if c.Started != nil {
			st.started = *c.Started
		}
		if c.Ended != nil {
			st.ended = *c.Ended
		}
	case e.Gang != nil:
		st := s.stages[e.Gang.Stage]
		if st == nil || st.gang == nil {
			return fmt.Errorf("the runs of gang stage %d, which is not known", e.Gang.Stage)
		}
		st.gang.GangState = *e.Gang
	case e.ExecutorCounts != nil:
		c := e.ExecutorCounts
		x := s.execs[c.ID]
		if x == nil {
			return fmt.Errorf("counts of executor %s, which is not known", c.ID)
		}
		x.running, x.succeeded, x.failed, x.killed = c.Running, c.Succeeded, c.Failed, c.Killed
	case e.Timeline != nil:
		if len(e.Timeline.Points) > s.timeline.max || e.Timeline.Step <= 0 {
			return fmt.Errorf("a timeline of %d points at a step of %v (at most %d, a positive step)", len(e.Timeline.Points), e.Timeline.Step, s.timeline.max)
		}
		s.timeline.points, s.timeline.step = append([]Point(nil), e.Timeline.Points...), e.Timeline.Step
	}
	return nil
}
