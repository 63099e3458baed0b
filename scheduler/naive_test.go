package scheduler

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// The deliberately naive placement the fast one is checked against (in the
// manner of etcd-io/raft): every choice recomputed from scratch, from the
// scheduler's primary state only (task states and counters of stages, the
// executors and their addresses), with none of the fast path's indexes:
// no runnable lists, no FIFO cursor, no pool counters, no free-core bitmap.

// useNaive makes s place with the naive choices.
func useNaive(s *Scheduler) {
	s.pickStage = func() *stage { return naiveNextStage(s) }
	s.pickExecutor = func(now time.Time, st *stage) *executor { return naiveFindExecutor(s, now, st) }
}

// naiveNextStage collects every stage that may place a task now, in every
// job, and sorts them by the full ordering: under FAIR the pools by Spark's
// FairSchedulingAlgorithm (in floating point, as Spark computes it), then
// within a pool by its mode; under FIFO by job, then stage.
func naiveNextStage(s *Scheduler) *stage {
	var cands []*stage
	running := map[*pool]int{}
	for _, j := range s.jobs {
		for _, st := range j.stages {
			running[j.pool] += st.running
			if j.ended || st.blockedRound == s.round || !naiveRunnable(st) {
				continue
			}
			if st.freshEnd-st.launched+len(st.retries) > 0 {
				cands = append(cands, st)
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	slices.SortFunc(cands, func(a, b *stage) int {
		if s.cfg.Mode == FAIR {
			if pa, pb := a.job.pool, b.job.pool; pa != pb {
				return naivePoolCompare(pa, pb, running[pa], running[pb])
			}
			if a.job.pool.cfg.Mode == FAIR && a.running != b.running {
				return cmp.Compare(a.running, b.running)
			}
		}
		return cmp.Or(cmp.Compare(a.job.id, b.job.id), cmp.Compare(a.id, b.id))
	})
	return cands[0]
}

// naiveRunnable: every parent's tasks all succeeded (and the stage itself
// has not).
func naiveRunnable(st *stage) bool {
	for _, p := range st.parents {
		for i := range p.spec.Tasks {
			if stateOf(p, i) != taskSucceeded {
				return false
			}
		}
	}
	for i := range st.spec.Tasks {
		if stateOf(st, i) != taskSucceeded {
			return true
		}
	}
	return false
}

// naivePoolCompare is Spark's FairSchedulingAlgorithm.comparator, doubles
// and all.
func naivePoolCompare(a, b *pool, ra, rb int) int {
	aNeedy, bNeedy := ra < a.cfg.MinShare, rb < b.cfg.MinShare
	minShareRatio := func(r int, p *pool) float64 { return float64(r) / math.Max(float64(p.cfg.MinShare), 1) }
	weightRatio := func(r int, p *pool) float64 { return float64(r) / float64(p.cfg.Weight) }
	var c int
	switch {
	case aNeedy && !bNeedy:
		return -1
	case !aNeedy && bNeedy:
		return 1
	case aNeedy && bNeedy:
		c = cmp.Compare(minShareRatio(ra, a), minShareRatio(rb, b))
	default:
		c = cmp.Compare(weightRatio(ra, a), weightRatio(rb, b))
	}
	if c != 0 {
		return c
	}
	return strings.Compare(a.cfg.Name, b.cfg.Name)
}

// naiveFindExecutor scans the profile's executors one by one from the
// round-robin cursor, wrapping around, for the first that can run st's
// next task now.
func naiveFindExecutor(s *Scheduler, now time.Time, st *stage) *executor {
	execs := st.profile.executors
	n := len(execs)
	spec := st.spec
	waiting := (len(spec.PreferredHosts) > 0 || len(spec.PreferredExecutors) > 0) && now.Before(st.localityDeadline)
	for k := range n {
		ex := execs[(st.profile.cursor+k)%n]
		used := 0
		for _, r := range ex.running {
			used += r.st.spec.Request.CPUs
		}
		switch {
		case ex.spec.Cores-used < spec.Request.CPUs:
		case ex.disabled:
		case now.Before(ex.host.excludedUntil):
		case waiting && !slices.Contains(spec.PreferredHosts, ex.spec.Host) && !slices.Contains(spec.PreferredExecutors, ex.spec.ID):
		case !naiveFits(ex.gpus.free, spec.Request.GPU):
		default:
			return ex
		}
	}
	return nil
}

func naiveFits(free []Share, g GPURequest) bool {
	switch {
	case g.IsZero():
		return true
	case g.Whole() > 0:
		n := 0
		for _, f := range free {
			if f == One {
				n++
			}
		}
		return n >= g.Whole()
	}
	for _, f := range free {
		if f >= g.Fraction() {
			return true
		}
	}
	return false
}
