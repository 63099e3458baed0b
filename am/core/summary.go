package core

import (
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Summary is how a job ended.
type Summary struct {
	ID        scheduler.JobID
	Job       string
	Succeeded bool
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
	// spindle.task.log.maxBytes, as executor/file name.
	OutputCut []string
	// Started is when the job was submitted; FirstLaunch when its first
	// task was sent to an executor; Registered when each executor
	// registered.
	Started, FirstLaunch time.Time
	Registered           []time.Time
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
}
