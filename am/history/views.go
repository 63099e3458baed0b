package history

import "time"

// The views are what the Store's queries return: copies, safe to keep
// and to encode (the REST API's JSON is theirs, docs/ui.md).

// AppView is the application at a glance.
type AppView struct {
	AppStarted
	Started     time.Time      `json:"started"`
	Ended       *time.Time     `json:"ended,omitempty"`
	State       string         `json:"state"` // running, succeeded, failed
	Diagnostics string         `json:"diagnostics,omitempty"`
	Jobs        map[string]int `json:"jobs"` // by state
	Executors   int            `json:"executors"`
	Tasks       Counts         `json:"tasks"`
}

// Counts count tasks and attempts.
type Counts struct {
	Tasks     int `json:"tasks"`
	Succeeded int `json:"succeeded"`
	Running   int `json:"running"`
	// Waiting are the tasks of running jobs neither running nor done.
	Waiting int `json:"waiting"`
	// FailedAttempts and KilledAttempts count attempts, not tasks.
	FailedAttempts int `json:"failedAttempts"`
	KilledAttempts int `json:"killedAttempts"`
}

// JobView is one job.
type JobView struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Pool      string     `json:"pool"`
	State     string     `json:"state"`
	Reason    string     `json:"reason,omitempty"`
	Submitted time.Time  `json:"submitted"`
	Ended     *time.Time `json:"ended,omitempty"`
	DurationS float64    `json:"durationS"`
	Counts
	Stages []StageView `json:"stages,omitempty"`
}

// StageView is one stage of a job.
type StageView struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	Parents []int64 `json:"parents,omitempty"`
	GPUs    float64 `json:"gpus,omitempty"`
	Cores   int     `json:"cores,omitempty"`
	Gang    bool    `json:"gang,omitempty"`
	Job     int64   `json:"job"`
	State   string  `json:"state"` // waiting, running, succeeded, or its job's end
	Counts
	Started   *time.Time `json:"started,omitempty"`
	Ended     *time.Time `json:"ended,omitempty"`
	DurationS float64    `json:"durationS"`
	// Listed is how many of its tasks are listed one by one
	// (Limits.RetainedTasks).
	Listed int `json:"listed"`
}

// TaskView is a task's latest attempt.
type TaskView struct {
	Index     int        `json:"index"`
	Attempts  int        `json:"attempts"`
	State     string     `json:"state"`
	Executor  string     `json:"executor,omitempty"`
	Host      string     `json:"host,omitempty"`
	GPUs      []string   `json:"gpus,omitempty"`
	Accels    []Resource `json:"accels,omitempty"`
	Started   *time.Time `json:"started,omitempty"`
	DurationS float64    `json:"durationS"`
	ExitCode  int        `json:"exitCode,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	// File names the latest attempt's files, before their suffix
	// (executor/tasklog.Name); LogURL is its executor's.
	File   string `json:"file,omitempty"`
	LogURL string `json:"logUrl,omitempty"`
	// Earlier are its earlier attempts kept (attempts.go), oldest first.
	Earlier []EarlierAttempt `json:"earlier,omitempty"`
}

// TaskPage is one page of a stage's tasks.
type TaskPage struct {
	Stage  int64      `json:"stage"`
	Offset int        `json:"offset"`
	Total  int        `json:"total"` // tasks listed, after the state filter
	Tasks  []TaskView `json:"tasks"`
}

// PoolView is a pool: its configuration and its running jobs' tasks.
type PoolView struct {
	PoolInfo
	Jobs    int `json:"jobs"` // running
	Running int `json:"running"`
	Waiting int `json:"waiting"`
}

// ExecutorView is one executor.
type ExecutorView struct {
	ExecutorAdded
	Added     time.Time  `json:"added"`
	Removed   *time.Time `json:"removed,omitempty"`
	State     string     `json:"state"` // active, removed, lost
	Reason    string     `json:"reason,omitempty"`
	TaskFault bool       `json:"taskFault,omitempty"`
	Running   int        `json:"running"`
	Succeeded int        `json:"succeeded"`
	Failed    int        `json:"failed"`
	Killed    int        `json:"killed"`
}

// Point is the timeline at one time: executors held and busy, and tasks
// waiting in each pool.
type Point struct {
	Time    time.Time      `json:"t"`
	Held    int            `json:"held"`
	Busy    int            `json:"busy"`
	Waiting map[string]int `json:"waiting,omitempty"`
}
