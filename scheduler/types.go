package scheduler

import (
	"fmt"
	"time"
)

// JobID is a job's submission number: lower runs first under FIFO.
type JobID int

// StageID numbers stages across jobs, in submission order.
type StageID int

// ExecutorID names an executor (a YARN container id, or local mode's).
type ExecutorID string

// TaskID is one task of a stage.
type TaskID struct {
	Stage StageID
	Index int
}

// AttemptID is one attempt of a task, numbered from 0.
type AttemptID struct {
	Task    TaskID
	Attempt int
}

func (a AttemptID) String() string {
	return fmt.Sprintf("stage %d task %d attempt %d", a.Task.Stage, a.Task.Index, a.Attempt)
}

// JobSpec describes a job to run: a DAG of stages, in a pool.
type JobSpec struct {
	Name   string
	Pool   string // empty: "default"
	Stages []StageSpec
}

// StageSpec is one stage: Tasks tasks, each asking Request of an executor
// of Profile, runnable once every stage named in After has succeeded.
type StageSpec struct {
	Name    string
	After   []string
	Tasks   int
	Profile ProfileID
	Request TaskRequest
	// MaxAttempts bounds a task's counted failures; 0 takes the
	// scheduler's default (spindle.task.maxFailures).
	MaxAttempts int
	// PreferredHosts and PreferredExecutors are locality hints: tasks wait
	// up to the locality wait for one of them before running anywhere.
	PreferredHosts     []string
	PreferredExecutors []ExecutorID
	// TaskLocality, when set, holds each task's own preferred hosts and
	// racks, by index (one for each task): the stage places them with
	// delay scheduling (locality.go). Not with PreferredHosts or
	// PreferredExecutors, nor for a gang.
	TaskLocality []TaskLocality
	// LocalityWait, when set, overrides Config.LocalityWait for the
	// stage's TaskLocality (spindle.locality.wait per stage; 0: none).
	LocalityWait *time.Duration
	// Gang launches all the stage's tasks in one round or none (gang.go).
	Gang bool
	// Speculation: whether stragglers get a copy (speculation.go); nil
	// takes the scheduler's default (Config.Speculation.Enabled). A gang
	// stage never speculates.
	Speculation *bool
}

// ExecutorSpec is an executor that registered: its profile, host, and what
// it really has (which may differ from its profile's shape).
type ExecutorSpec struct {
	ID      ExecutorID
	Host    string
	Rack    string // its host's rack (YARN's topology), if known
	Profile ProfileID
	Cores   int
	GPUs    []string // concrete addresses
	// Accels are its addresses of each accelerator besides GPUs.
	Accels []Assigned
}

// Outcome is how a task attempt ended.
type Outcome int

const (
	Succeeded Outcome = iota
	Failed
	Killed // stopped at the scheduler's request
)

// TaskResult reports the end of an attempt.
type TaskResult struct {
	Outcome Outcome
	// Reason says why it failed (the OS error, the exit status, ...).
	Reason   string
	ExitCode int
	// Blameless marks a failure that was not the task's doing (its
	// executor shutting down, a preemption): the task runs again without
	// the failure counting against it or its host.
	Blameless bool
	// Permanent marks a failure every attempt would meet, found before
	// the task could start (its command cannot be built): it counts, not
	// against its host, and fails the job at once rather than retrying.
	Permanent bool
}

// ExecutorLoss says why an executor went away.
type ExecutorLoss struct {
	Reason string
	// TaskFault means the tasks running there caused the loss (a container
	// killed for exceeding its memory): each counts as a failed attempt.
	TaskFault bool
}

// Launch tells the caller to start an attempt on an executor with exactly
// these GPU addresses.
type Launch struct {
	Attempt   AttemptID
	Job       JobID
	Executor  ExecutorID
	Host      string
	Request   TaskRequest
	Addresses []string // read-only; shared with the scheduler
	// Accels are the addresses of each accelerator the task asks for, in
	// its request's order (nil when it asks for none); read-only.
	Accels []Assigned
	// Speculative marks a copy of a straggler, launched while the task's
	// own attempt still runs (speculation.go).
	Speculative bool
	// Locality is how near its preferred hosts the task runs; unset for
	// a stage without TaskLocality.
	Locality Locality
}

// Kill tells the caller to stop a running attempt; its end is reported with
// TaskFinished as usual (Outcome Killed).
type Kill struct {
	Attempt  AttemptID
	Executor ExecutorID
	Reason   string
}

// JobResult reports a job that ended.
type JobResult struct {
	Job       JobID
	Name      string
	Succeeded bool
	Reason    string // why it failed or was cancelled
}

// Ready is what the scheduler decided since the last Ready: the batch the
// caller carries out. Its slices are reused by the next call to Ready.
type Ready struct {
	Launches []Launch
	Kills    []Kill
	// StagesSucceeded are the stages whose every task succeeded, in the
	// order they did.
	StagesSucceeded []StageID
	Finished        []JobResult
	// GangTimeouts are the waiting gangs whose try timed out (gang.go).
	GangTimeouts []GangTimeout
	// GangTasksDone are the tasks of gangs whose whole run succeeded, in
	// index order: a gang task's success is final only then (gang.go),
	// so only then may the caller record it as done for good.
	GangTasksDone []TaskID
	// Failures are the tasks whose attempts failed counted against them
	// (not blamelessly), once per failure, in the order they did: for
	// the caller to record, so that an ApplicationMaster's next attempt
	// counts them too (RestoreFailures).
	Failures []TaskID
}

// Config is the scheduler's configuration.
type Config struct {
	// Mode orders pools at the root: FIFO (jobs in submission order, pools
	// ignored) or FAIR (pools by Spark's fair algorithm).
	Mode  SchedulingMode
	Pools []PoolConfig
	// Fairness is what FAIR mode shares: running tasks (the default) or
	// dominant resource shares (drf.go).
	Fairness Fairness
	// MaxTaskFailures is the default number of counted failures a task
	// may have before its job fails (spindle.task.maxFailures, default 4,
	// at most MaxAttemptsLimit).
	MaxTaskFailures int
	// RetryBackoff and RetryMaxBackoff space a task's attempts after
	// counted failures: after the n-th, its next attempt waits
	// min(RetryBackoff·2^(n-1), RetryMaxBackoff) (spindle.task.retry.backoff,
	// default 200ms; spindle.task.retry.maxBackoff, default 10s). Blameless
	// requeues do not wait.
	RetryBackoff    time.Duration
	RetryMaxBackoff time.Duration
	// LocalityWait is how long tasks with preferred hosts wait for them
	// before running anywhere (Spark's spark.locality.wait, 3s there);
	// zero does not wait. For a stage's TaskLocality it is the wait at
	// each level, node-local then rack-local (locality.go).
	LocalityWait time.Duration
	Exclusion    ExclusionConfig
	Gang         GangConfig
	Speculation  SpeculationConfig
}

// MaxAttemptsLimit bounds a task's attempts (StageSpec.MaxAttempts,
// Config.MaxTaskFailures): a task that failed a hundred times will not
// succeed on the next, and each attempt costs a process and its logs.
const MaxAttemptsLimit = 100

// ExclusionConfig keeps tasks off hosts where tasks keep failing
// (Spark's excludeOnFailure).
type ExclusionConfig struct {
	Enabled bool
	// MaxFailuresPerHost counted task failures exclude a host (default 2).
	MaxFailuresPerHost int
	// Timeout is how long a host stays excluded, and the window failures
	// are counted in (default 1h).
	Timeout time.Duration
	// UnschedulableTimeout fails a job whose pending tasks can run nowhere
	// but on excluded hosts for this long (default 120s).
	UnschedulableTimeout time.Duration
}

func (c Config) withDefaults() Config {
	if c.MaxTaskFailures <= 0 {
		c.MaxTaskFailures = 4
	}
	c.LocalityWait = max(c.LocalityWait, 0)
	if c.RetryBackoff <= 0 {
		c.RetryBackoff = 200 * time.Millisecond
	}
	if c.RetryMaxBackoff <= 0 {
		c.RetryMaxBackoff = 10 * time.Second
	}
	if c.Exclusion.MaxFailuresPerHost <= 0 {
		c.Exclusion.MaxFailuresPerHost = 2
	}
	if c.Exclusion.Timeout <= 0 {
		c.Exclusion.Timeout = time.Hour
	}
	if c.Gang.Timeout <= 0 {
		c.Gang.Timeout = 60 * time.Second
	}
	c.Gang.MaxRetries = max(c.Gang.MaxRetries, 0)
	c.Speculation = c.Speculation.withDefaults()
	if c.Exclusion.UnschedulableTimeout <= 0 {
		c.Exclusion.UnschedulableTimeout = 120 * time.Second
	}
	return c
}
