package sim

import (
	"math"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// PoolResult is what one pool of the trace got: the resources its tasks
// held, and how much of the cluster it held while it had work waiting,
// the share a fairness rule decides (spindle.scheduler.fairness).
type PoolResult struct {
	Name       string  `json:"name"`
	Tasks      int     `json:"tasks"`
	CPUSeconds float64 `json:"cpu_seconds"`
	GPUSeconds float64 `json:"gpu_seconds"`
	// MeanDominantShare is the pool's dominant share (the larger of its
	// running tasks' cpus over the registered executors' cores and their
	// GPUs over the executors' GPUs), averaged over the time it had tasks
	// not yet started (BackloggedS): what it got while it wanted more.
	MeanDominantShare float64 `json:"mean_dominant_share"`
	BackloggedS       float64 `json:"backlogged_s"`
	MeanJobS          float64 `json:"mean_job_s"`
}

// poolAcct accumulates a pool's PoolResult over a run.
type poolAcct struct {
	PoolResult
	waiting      int     // tasks submitted, not yet started
	cpus, gpus   float64 // what its running tasks hold
	shareSeconds float64 // ∫ dominant share dt while waiting > 0
	jobs         int
	jobSeconds   float64
}

// stageUse is what each task of a stage holds, and whose it is.
type stageUse struct {
	pool       *poolAcct
	cpus, gpus float64
	dur        time.Duration
}

// pools tracks every pool's usage against the registered executors.
type pools struct {
	byName  map[string]*poolAcct
	stages  map[scheduler.StageID]stageUse
	jobs    map[scheduler.JobID]*poolAcct
	waiting map[*poolAcct]bool // the pools with tasks not yet started
	// cores and gpus the registered executors offer.
	cores, gpus int
}

func newPools() *pools {
	return &pools{byName: map[string]*poolAcct{}, stages: map[scheduler.StageID]stageUse{}, jobs: map[scheduler.JobID]*poolAcct{}, waiting: map[*poolAcct]bool{}}
}

// submitted counts a job's stages against its pool (empty: default).
func (ps *pools) submitted(name string, id scheduler.JobID, stages []scheduler.StageID, rows []StageRow) {
	if name == "" {
		name = scheduler.DefaultPool
	}
	p := ps.byName[name]
	if p == nil {
		p = &poolAcct{PoolResult: PoolResult{Name: name}}
		ps.byName[name] = p
	}
	ps.jobs[id] = p
	for k, sid := range stages {
		ps.stages[sid] = stageUse{pool: p, cpus: float64(rows[k].CPUs), gpus: rows[k].GPUs, dur: seconds(rows[k].TaskS)}
		p.waiting += rows[k].Tasks
	}
	if p.waiting > 0 {
		ps.waiting[p] = true
	}
}

// started counts a task of stage sid starting.
func (ps *pools) started(sid scheduler.StageID) {
	u := ps.stages[sid]
	p := u.pool
	p.Tasks++
	p.CPUSeconds += u.cpus * u.dur.Seconds()
	p.GPUSeconds += u.gpus * u.dur.Seconds()
	p.cpus += u.cpus
	p.gpus += u.gpus
	if p.waiting--; p.waiting == 0 {
		delete(ps.waiting, p)
	}
}

// ended counts a task of stage sid ending.
func (ps *pools) ended(sid scheduler.StageID) {
	u := ps.stages[sid]
	u.pool.cpus -= u.cpus
	u.pool.gpus -= u.gpus
}

// jobEnded counts a job's time against its pool.
func (ps *pools) jobEnded(id scheduler.JobID, d time.Duration) {
	if p := ps.jobs[id]; p != nil {
		p.jobs++
		p.jobSeconds += d.Seconds()
		delete(ps.jobs, id)
	}
}

// elapse accounts d of simulated time at the current usage: every pool
// with work waiting held its dominant share for d.
func (ps *pools) elapse(d time.Duration) {
	if d <= 0 {
		return
	}
	for p := range ps.waiting {
		share := 0.0
		if ps.cores > 0 {
			share = p.cpus / float64(ps.cores)
		}
		if ps.gpus > 0 {
			share = max(share, p.gpus/float64(ps.gpus))
		}
		p.BackloggedS += d.Seconds()
		p.shareSeconds += share * d.Seconds()
	}
}

// results lists the pools by name, their figures rounded as the run's.
func (ps *pools) results() []PoolResult {
	out := make([]PoolResult, 0, len(ps.byName))
	for _, p := range ps.byName {
		r := p.PoolResult
		if r.BackloggedS > 0 {
			r.MeanDominantShare = math.Round(p.shareSeconds/r.BackloggedS*1000) / 1000
		}
		if p.jobs > 0 {
			r.MeanJobS = math.Round(p.jobSeconds/float64(p.jobs)*1000) / 1000
		}
		r.CPUSeconds = math.Round(r.CPUSeconds*1000) / 1000
		r.GPUSeconds = math.Round(r.GPUSeconds*1000) / 1000
		r.BackloggedS = math.Round(r.BackloggedS*1000) / 1000
		out = append(out, r)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Name < out[k].Name })
	return out
}
