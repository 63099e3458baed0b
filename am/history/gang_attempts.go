package history

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// A gang's tasks start together or not at all, and when one fails the
// scheduler stops the others and starts them all again (scheduler/
// gang.go, restartGang): every rank gets its next attempt at once. So
// attempt n of each of a gang stage's tasks is the gang's attempt n,
// and the Store groups them by that number.

// GangAttempt is one run of a gang stage: attempt Attempt of each of
// its tasks kept.
type GangAttempt struct {
	Attempt int `json:"attempt"`
	// State is failed when a rank failed, else running while one runs,
	// else succeeded when all did, else killed.
	State   string     `json:"state"`
	Started time.Time  `json:"started"`
	Ended   *time.Time `json:"ended,omitempty"`
	// Reason is why it ended: its first failed rank's (else its first
	// killed one's) reason, with the rank.
	Reason string `json:"reason,omitempty"`
	// Ranks are its tasks' attempts, by index.
	Ranks []RankAttempt `json:"ranks"`
}

// RankAttempt is one task's attempt in a gang's attempt.
type RankAttempt struct {
	Index int `json:"index"`
	AttemptView
}

// GangAttempts are a gang stage's attempts, oldest first, from its
// listed tasks' attempts kept; none for a stage that is no gang, false
// for one not known.
func (s *Store) GangAttempts(now time.Time, id int64) ([]GangAttempt, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stages[id]
	if st == nil {
		return nil, false
	}
	if !st.info.Gang {
		return nil, true
	}
	byAttempt := map[int]*GangAttempt{}
	nowMs := now.UnixMilli()
	add := func(index int, t *task) {
		v := s.attemptView(st, t, index, nowMs)
		g := byAttempt[v.Attempt]
		if g == nil {
			g = &GangAttempt{Attempt: v.Attempt}
			byAttempt[v.Attempt] = g
		}
		g.Ranks = append(g.Ranks, RankAttempt{Index: index, AttemptView: v})
	}
	for i := range st.tasks {
		if st.tasks[i].state == tNone {
			continue
		}
		for j := range st.earlier[i] {
			add(i, &st.earlier[i][j])
		}
		add(i, &st.tasks[i])
	}
	out := make([]GangAttempt, 0, len(byAttempt))
	for _, g := range byAttempt {
		g.conclude()
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b GangAttempt) int { return a.Attempt - b.Attempt })
	return out, true
}

// conclude sets g's state, times and reason from its ranks'.
func (g *GangAttempt) conclude() {
	counts := map[string]int{}
	var failed, killed *RankAttempt
	g.Started = g.Ranks[0].Started
	for i := range g.Ranks {
		r := &g.Ranks[i]
		counts[r.State]++
		if r.Started.Before(g.Started) {
			g.Started = r.Started
		}
		if r.Ended != nil && (g.Ended == nil || r.Ended.After(*g.Ended)) {
			g.Ended = r.Ended
		}
		if r.State == TaskFailed && failed == nil {
			failed = r
		}
		if r.State == TaskKilled && killed == nil {
			killed = r
		}
	}
	switch {
	case failed != nil:
		g.State = TaskFailed
	case counts[TaskRunning] > 0:
		g.State = TaskRunning
	case counts[TaskSucceeded] == len(g.Ranks):
		g.State = TaskSucceeded
	default:
		g.State = TaskKilled
	}
	if counts[TaskRunning] > 0 {
		g.Ended = nil
	}
	if r := cmp.Or(failed, killed); r != nil {
		g.Reason = fmt.Sprintf("task %d: %s", r.Index, r.Reason)
	}
}
