package scheduler

import (
	"fmt"
	"strings"
)

// SchedulingMode orders what a pool (or the root) holds.
type SchedulingMode int

const (
	// FIFO runs jobs in submission order, stages by id within a job.
	FIFO SchedulingMode = iota
	// FAIR shares running tasks by minShare, then weight (Spark's
	// FairSchedulingAlgorithm).
	FAIR
)

func (m SchedulingMode) String() string {
	if m == FAIR {
		return "FAIR"
	}
	return "FIFO"
}

// ParseSchedulingMode reads "FIFO" or "FAIR" (any case, as Spark accepts).
func ParseSchedulingMode(s string) (SchedulingMode, error) {
	switch {
	case strings.EqualFold(s, "FIFO"):
		return FIFO, nil
	case strings.EqualFold(s, "FAIR"):
		return FAIR, nil
	}
	return FIFO, fmt.Errorf("scheduling mode %q: want FIFO or FAIR", s)
}

// Fairness is what FAIR mode shares between pools.
type Fairness int

const (
	// FairTasks shares running tasks (Spark's rule): a task is a task,
	// whatever it holds.
	FairTasks Fairness = iota
	// FairDRF shares resources by dominant resource share (Ghodsi et
	// al.'s DRF, as YuniKorn sorts queues): a pool's running tasks' cpus
	// and GPUs against the session's, the larger of the two counts.
	FairDRF
)

func (f Fairness) String() string {
	if f == FairDRF {
		return "drf"
	}
	return "tasks"
}

// ParseFairness reads "tasks" or "drf" (any case).
func ParseFairness(s string) (Fairness, error) {
	switch {
	case strings.EqualFold(s, "tasks"):
		return FairTasks, nil
	case strings.EqualFold(s, "drf"):
		return FairDRF, nil
	}
	return FairTasks, fmt.Errorf("fairness %q: want tasks or drf", s)
}

// PoolConfig is one pool of a fairScheduler.xml: a pool a job names but no
// file configures gets DefaultPoolConfig.
type PoolConfig struct {
	Name     string
	Mode     SchedulingMode
	Weight   int // share of running tasks relative to other pools, >= 1
	MinShare int // running tasks the pool is owed before weights count, >= 0
}

// DefaultPool is the pool of a job that names none.
const DefaultPool = "default"

// DefaultPoolConfig is Spark's default for a pool: weight 1, minShare 0, FIFO.
func DefaultPoolConfig(name string) PoolConfig {
	return PoolConfig{Name: name, Mode: FIFO, Weight: 1, MinShare: 0}
}
