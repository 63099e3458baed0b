package history

import (
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// Every attempt of a listed task is kept, up to Limits.RetainedAttempts:
// its latest is its row (stage.tasks, what the stage's list shows and
// sorts), the earlier ones, which only retried tasks have, wait in
// stage.earlier, oldest first. A task's first attempt is kept always
// (its failure is usually the one that matters), then its latest ones;
// those between go, counted (its attempts less those kept). An attempt
// that goes leaves its slot of extras to the next, so that a task
// retried a thousand times holds no more than RetainedAttempts of
// either.

// keepEarlier moves old, index's attempt that a new one replaces, among
// its earlier attempts, within most attempts in all, and returns the
// extras' slot the new attempt takes (0: none). An attempt whose end was
// never told (its executor written off) ends, killed, as the next
// starts.
func (st *stage) keepEarlier(index int, old task, now time.Time, most int) int32 {
	if old.state == tRunning {
		old.state, old.end = tKilled, now.UnixMilli()
		e := st.extraOf(&old)
		e.reason = "launched again before its end was told"
		st.setExtra(&old, e)
	}
	earlier := st.earlier[index]
	switch {
	case len(earlier) < most-1:
		if st.earlier == nil {
			st.earlier = map[int][]task{}
		}
		st.earlier[index] = append(earlier, old)
		return 0
	case len(earlier) < 2: // room for the first alone, or none
		return old.extra
	}
	// Full: the second oldest goes, the first stays.
	slot := earlier[1].extra
	copy(earlier[1:], earlier[2:])
	earlier[len(earlier)-1] = old
	return slot
}

// TaskAttempts is a task and every attempt of it kept.
type TaskAttempts struct {
	Stage     int64  `json:"stage"`
	StageName string `json:"stageName"`
	Job       int64  `json:"job"`
	Index     int    `json:"index"`
	// Gang says its stage is a gang: attempt n of each of its tasks ran
	// together, as the gang's attempt n.
	Gang bool `json:"gang,omitempty"`
	// Attempts is how many it had; Dropped how many of those are not
	// kept (Limits.RetainedAttempts), all after the first.
	Attempts int           `json:"attempts"`
	Dropped  int           `json:"dropped"`
	Kept     []AttemptView `json:"kept"`
}

// AttemptView is one attempt of a task.
type AttemptView struct {
	Attempt   int        `json:"attempt"`
	State     string     `json:"state"`
	Executor  string     `json:"executor,omitempty"`
	Host      string     `json:"host,omitempty"`
	GPUs      []string   `json:"gpus,omitempty"`
	Accels    []Resource `json:"accels,omitempty"`
	Started   time.Time  `json:"started"`
	Ended     *time.Time `json:"ended,omitempty"`
	DurationS float64    `json:"durationS"`
	ExitCode  int        `json:"exitCode,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	// File names its files, before their suffix (executor/tasklog.Name);
	// LogURL is its executor's.
	File   string `json:"file"`
	LogURL string `json:"logUrl,omitempty"`
}

// Task is one listed task's attempts, oldest first; false when the
// stage is not known or the task not listed.
func (s *Store) Task(now time.Time, id int64, index int) (TaskAttempts, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stages[id]
	if st == nil || index < 0 || index >= st.listed(s.lim) {
		return TaskAttempts{}, false
	}
	v := TaskAttempts{Stage: id, StageName: st.info.Name, Job: st.job.ID, Index: index, Gang: st.info.Gang, Kept: []AttemptView{}}
	if index >= len(st.tasks) || st.tasks[index].state == tNone {
		return v, true
	}
	latest := &st.tasks[index]
	nowMs := now.UnixMilli()
	for _, t := range st.earlier[index] {
		v.Kept = append(v.Kept, s.attemptView(st, &t, index, nowMs))
	}
	v.Kept = append(v.Kept, s.attemptView(st, latest, index, nowMs))
	v.Attempts = int(latest.attempt) + 1
	v.Dropped = max(v.Attempts-len(v.Kept), 0)
	return v, true
}

func (s *Store) attemptView(st *stage, t *task, index int, nowMs int64) AttemptView {
	extra := st.extraOf(t)
	v := AttemptView{Attempt: int(t.attempt), State: taskStates[t.state], GPUs: slices.Clone(extra.gpus), Accels: cloneResources(extra.accels), Reason: extra.reason,
		Started: time.UnixMilli(t.start), ExitCode: int(t.exit), File: tasklog.Name(st.job.ID, st.index, index, int(t.attempt))}
	if x := s.executorOf(t); x != nil {
		v.Executor, v.Host, v.LogURL = x.ID, x.Host, x.LogURL
	}
	end := nowMs
	if t.state != tRunning {
		end = t.end
		v.Ended = timePtr(time.UnixMilli(end))
	}
	v.DurationS = float64(end-t.start) / 1000
	return v
}

// EarlierAttempt is where an earlier attempt of a task wrote its output,
// as the stage's list links it.
type EarlierAttempt struct {
	Attempt  int    `json:"attempt"`
	State    string `json:"state"`
	Executor string `json:"executor,omitempty"`
	File     string `json:"file"`
	LogURL   string `json:"logUrl,omitempty"`
}

// earlierOf are index's earlier attempts kept, oldest first (nil for
// none).
func (s *Store) earlierOf(st *stage, index int) []EarlierAttempt {
	earlier := st.earlier[index]
	if len(earlier) == 0 {
		return nil
	}
	out := make([]EarlierAttempt, 0, len(earlier))
	for i := range earlier {
		t := &earlier[i]
		e := EarlierAttempt{Attempt: int(t.attempt), State: taskStates[t.state], File: tasklog.Name(st.job.ID, st.index, index, int(t.attempt))}
		if x := s.executorOf(t); x != nil {
			e.Executor, e.LogURL = x.ID, x.LogURL
		}
		out = append(out, e)
	}
	return out
}
