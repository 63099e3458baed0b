package history

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// A gang stage's history: its runs, where each met, and why it ran
// again. A run starts with GangStarted; the first of its ranks to end
// other than in success (or to lose its executor) ended it, and the
// next run's start is a restart for that reason; a try at acquiring its
// slots that timed out is a restart too.

// gangRuns is a gang stage's runs so far.
type gangRuns struct {
	GangState
}

// gangOf is gang stage id's runs; an error when the stage is not known
// or no gang.
func (s *Store) gangOf(id int64) (*gangRuns, error) {
	st := s.stages[id]
	if st == nil {
		return nil, fmt.Errorf("gang stage %d is not known", id)
	}
	if st.gang == nil {
		return nil, fmt.Errorf("stage %d is no gang stage", id)
	}
	return st.gang, nil
}

func (s *Store) gangStarted(now time.Time, gs *GangStarted) error {
	g, err := s.gangOf(gs.Stage)
	if err != nil {
		return err
	}
	if g.Runs > 0 {
		r := GangRestart{Time: now, Reason: fmt.Sprintf("run %d ended", g.Runs)}
		if g.Ended != nil {
			r = *g.Ended
		}
		g.restarted(r)
	}
	g.Runs++
	g.MasterAddr, g.MasterPort, g.Ended, g.RunStarted = gs.MasterAddr, gs.MasterPort, nil, now.UnixMilli()
	return nil
}

func (s *Store) gangTimedOut(now time.Time, gt *GangTimedOut) error {
	g, err := s.gangOf(gt.Stage)
	if err != nil {
		return err
	}
	g.restarted(GangRestart{Time: now, Reason: "timed out waiting: " + gt.Message})
	return nil
}

// maxGangRestarts bounds the restarts a gang keeps, the latest: a
// session's gang whose executors keep going restarts without end.
const maxGangRestarts = 100

// restarted keeps restart r, forgetting the oldest beyond
// maxGangRestarts.
func (g *gangRuns) restarted(r GangRestart) {
	if len(g.Restarts) == maxGangRestarts {
		g.Restarts = append(g.Restarts[:0], g.Restarts[1:]...)
		g.Forgotten++
	}
	g.Restarts = append(g.Restarts, r)
}

// gangRankEnded notes what ended gang st's run: the first of its ranks
// (t, an attempt of this run) to end other than in success.
func (s *Store) gangRankEnded(now time.Time, st *stage, index int, t *task, te *TaskEnded) {
	g := st.gang
	if g == nil || g.Runs == 0 || g.Ended != nil || te.State == TaskSucceeded || (t != nil && t.start < g.RunStarted) {
		return
	}
	r := GangRestart{Time: now, Rank: index, Attempt: te.Attempt, Executor: te.Executor,
		File: tasklog.Name(st.job.ID, st.index, index, te.Attempt)}
	if x := s.execs[te.Executor]; x != nil {
		r.LogURL = x.LogURL
	}
	switch {
	case te.State == TaskFailed && te.ExitCode != 0 && te.Reason == fmt.Sprintf("exit status %d", te.ExitCode):
		r.Reason = fmt.Sprintf("rank %d exited %d", index, te.ExitCode)
	case te.State == TaskFailed:
		r.Reason = fmt.Sprintf("rank %d failed: %s", index, te.Reason)
	default:
		r.Reason = fmt.Sprintf("rank %d was killed: %s", index, te.Reason)
	}
	g.Ended = &r
}

// gangExecutorGone notes what ended the runs of gangs whose ranks ran on
// executor x, gone: the scheduler ends their attempts without a word to
// the history.
func (s *Store) gangExecutorGone(now time.Time, x *executor, why string) {
	for _, st := range s.stages {
		g := st.gang
		if g == nil || g.Runs == 0 || g.Ended != nil {
			continue
		}
		for i := range st.tasks {
			if t := &st.tasks[i]; t.state == tRunning && t.exec == x.slot+1 && t.start >= g.RunStarted {
				g.Ended = &GangRestart{Time: now, Rank: i, Attempt: int(t.attempt), Executor: x.ID, LogURL: x.LogURL,
					File:   tasklog.Name(st.job.ID, st.index, i, int(t.attempt)),
					Reason: fmt.Sprintf("rank %d's executor %s went: %s", i, x.ID, why)}
				break
			}
		}
	}
}

// GangView is a gang stage's ranks and runs.
type GangView struct {
	// Runs counts the times its ranks were launched together.
	Runs int `json:"runs"`
	// Master is MASTER_ADDR:MASTER_PORT of its latest run.
	Master string `json:"master,omitempty"`
	// RestartCount counts its restarts; Restarts are the latest
	// (maxGangRestarts), oldest first.
	RestartCount int           `json:"restartCount"`
	Restarts     []GangRestart `json:"restarts"`
	// Ended is what ended its latest run, while it waits to run again.
	Ended *GangRestart `json:"ended,omitempty"`
	// Ranks are its tasks' latest attempts, by rank.
	Ranks []TaskView `json:"ranks"`
	// Waiting is, while it waits, what it lacks: the scheduler's words
	// (the web UI fills it in from the live status).
	Waiting string `json:"waiting,omitempty"`
}

// maxRanksShown bounds the ranks a GangView lists: a gang is as large
// as what runs at once, which a page can show, but a stage of a session
// is not bounded.
const maxRanksShown = 1000

// Gang is stage id's gang view; false when it is no gang stage (or not
// known).
func (s *Store) Gang(now time.Time, id int64) (GangView, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stages[id]
	if st == nil || st.gang == nil {
		return GangView{}, false
	}
	g := st.gang
	v := GangView{Runs: g.Runs, RestartCount: g.Forgotten + len(g.Restarts), Restarts: append([]GangRestart{}, g.Restarts...), Ranks: []TaskView{}}
	if g.MasterAddr != "" {
		v.Master = fmt.Sprintf("%s:%d", g.MasterAddr, g.MasterPort)
	}
	if g.Ended != nil {
		e := *g.Ended
		v.Ended = &e
	}
	nowMs := now.UnixMilli()
	for i := range min(st.listed(s.lim), maxRanksShown) {
		v.Ranks = append(v.Ranks, s.listedTask(st, i, nowMs))
	}
	return v, true
}
