package webui

import (
	"math"
	"net/http"

	"github.com/spindle-yarn/spindle/am/history"
)

// Stage is a stage as the API gives it: its history, its summary, and
// for a gang stage its attempts, rank by rank, and its ranks and runs
// (GangRuns, gang.go).
type Stage struct {
	history.StageView
	Summary      Summary               `json:"summary"`
	GangAttempts []history.GangAttempt `json:"gangAttempts,omitempty"`
	GangRuns     *history.GangView     `json:"gangRuns,omitempty"`
}

// Summary is the spread of a stage's tasks, as Spark's stage page has
// it: the quantiles of its succeeded tasks' durations (seconds), and
// while it runs of its running tasks' GPUs' latest utilization
// (percent; GPU figures are live only, gpu_use.go). A quantile of no
// value is absent.
type Summary struct {
	DurationS         *history.Quantiles `json:"durationS,omitempty"`
	GPUUtilizationPct *history.Quantiles `json:"gpuUtilizationPct,omitempty"`
}

// withSummary gives st its summary and gang attempts.
func (u *ui) withSummary(r *http.Request, st history.StageView) Stage {
	now := u.o.Now()
	out := Stage{StageView: st}
	out.Summary.DurationS, _ = u.o.Store.Durations(st.ID)
	out.GangAttempts, _ = u.o.Store.GangAttempts(now, st.ID)
	if st.Running == 0 {
		return out
	}
	figures := u.gpuFigures(r)
	if len(figures) == 0 {
		return out
	}
	running, _ := u.o.Store.Tasks(now, st.ID, history.TaskQuery{State: history.TaskRunning, Length: math.MaxInt32})
	var utilization []float64
	for _, t := range running.Tasks {
		for _, s := range gpusNamed(figures[t.Executor], t.GPUs) {
			if s.UtilizationPct != nil {
				utilization = append(utilization, float64(*s.UtilizationPct))
			}
		}
	}
	out.Summary.GPUUtilizationPct = history.QuantilesOf(utilization)
	return out
}
