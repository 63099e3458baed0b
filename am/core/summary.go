package core

import (
	"time"

	"github.com/spindle-yarn/spindle/executor/gpuuse"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Summary is how a job ended.
type Summary struct {
	ID        scheduler.JobID
	Job       string
	Succeeded bool
	// Cancelled says the job did not fail but was cancelled (Reason says
	// why).
	Cancelled bool
	Reason    string
	Tasks     int
	Attempts  int
	Failures  int // failed attempts, counted or not
	Retries   int // attempts after a task's first
	Duration  time.Duration
	Executors []ExecutorSummary
	// Rejected counts connections refused: failing authentication, or
	// over the executor listener's bounds on handshakes in progress.
	Rejected int
	// OutputCut lists the task output files whose head was cut to keep
	// spindle.task.log.maxBytes, as executor/file name: the first
	// OutputCutListed, and OutputCutMore counts the rest, so that a job
	// of millions of tasks does not list millions of files.
	OutputCut     []string
	OutputCutMore int
	// Started is when the job was submitted; FirstLaunch when its first
	// task was sent to an executor; Registered when each executor
	// registered.
	Started, FirstLaunch time.Time
	Registered           []time.Time
}

// OutputCutListed is how many cut output files a Summary names.
const OutputCutListed = 100

// outputCut notes one more output file of the job whose head was cut.
func (s *Summary) outputCut(name string) {
	if len(s.OutputCut) < OutputCutListed {
		s.OutputCut = append(s.OutputCut, name)
	} else {
		s.OutputCutMore++
	}
}

// ExecutorSummary is one executor's share of the application.
type ExecutorSummary struct {
	ID        scheduler.ExecutorID
	Host      string
	Succeeded int
	Failed    int
	Lost      string // why it went away mid-job, if it did
}

// Progress is a running job's state, for a progress bar.
type Progress struct {
	Job       string
	Tasks     int
	Succeeded int
	Running   int
	Failed    int // failed attempts so far
	Executors int
	Elapsed   time.Duration
}

// Status is the application as the core sees it at one moment: what the
// ApplicationMaster's tracking URL shows.
type Status struct {
	App            string           `json:"app"`
	Job            string           `json:"job"`
	ElapsedSeconds float64          `json:"elapsed_s"`
	Tasks          int              `json:"tasks"`
	Succeeded      int              `json:"succeeded"`
	Running        int              `json:"running"`
	Pending        int              `json:"pending"`
	FailedAttempts int              `json:"failed_attempts"`
	Waiting        []WaitingStage   `json:"waiting,omitempty"`
	Executors      []ExecutorStatus `json:"executors"`
	// Jobs are every job as Jobs lists them (a session's many); Pools
	// every pool, in the order fair sharing would next serve them.
	Jobs  []JobStatus  `json:"jobs"`
	Pools []PoolStatus `json:"pools"`
}

// JobStatus is one job in a Status.
type JobStatus struct {
	ID             int64   `json:"id"`
	Name           string  `json:"name"`
	Pool           string  `json:"pool"`
	State          string  `json:"state"`
	Tasks          int     `json:"tasks"`
	Succeeded      int     `json:"succeeded"`
	Running        int     `json:"running"`
	FailedAttempts int     `json:"failed_attempts"`
	DurationS      float64 `json:"duration_s"`
	Reason         string  `json:"reason,omitempty"`
	// Waiting says why its stages' pending tasks wait, in the
	// scheduler's words.
	Waiting []WaitingStage `json:"waiting,omitempty"`
}

// PoolStatus is one pool in a Status: its settings, and its active jobs'
// tasks.
type PoolStatus struct {
	Name     string `json:"name"`
	Mode     string `json:"mode"`
	Weight   int    `json:"weight"`
	MinShare int    `json:"min_share"`
	Running  int    `json:"running"`
	Pending  int    `json:"pending"`
	Jobs     int    `json:"jobs"`
}

// WaitingStage says why a stage's pending tasks are not running, in the
// scheduler's words ("0/2 executors can run it: ...").
type WaitingStage struct {
	Stage   string `json:"stage"`
	Pending int    `json:"pending"`
	Why     string `json:"why"`
}

// ExecutorStatus is one executor in a Status.
type ExecutorStatus struct {
	ID      string `json:"id"`
	Host    string `json:"host"`
	Running int    `json:"running"`
	// GPUs are its GPUs' latest figures, as nvidia-smi gave them: the
	// driver adds them (am/gpus.go), the core holds none. Absent where
	// the executor has no GPUs, no nvidia-smi, or sampling is off.
	GPUs []gpuuse.Sample `json:"gpus,omitempty"`
}
