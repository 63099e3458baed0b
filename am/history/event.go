package history

import "time"

// Event is one line of the event log: a time and exactly one of the
// other fields. Ids are the application's: a job's and a stage's the
// scheduler's numbers, a task its index in its stage, an executor the
// driver's name for it.
type Event struct {
	Time time.Time `json:"t"`

	App             *AppStarted      `json:"app,omitempty"`
	Pools           []PoolInfo       `json:"pools,omitempty"`
	Environment     []Setting        `json:"environment,omitempty"`
	JobSubmitted    *JobSubmitted    `json:"jobSubmitted,omitempty"`
	JobEnded        *JobEnded        `json:"jobEnded,omitempty"`
	TaskStarted     *TaskStarted     `json:"taskStarted,omitempty"`
	TaskEnded       *TaskEnded       `json:"taskEnded,omitempty"`
	ExecutorAdded   *ExecutorAdded   `json:"executorAdded,omitempty"`
	ExecutorRemoved *ExecutorRemoved `json:"executorRemoved,omitempty"`
	AppEnded        *AppEnded        `json:"appEnded,omitempty"`
	GangStarted     *GangStarted     `json:"gangStarted,omitempty"`
	GangTimedOut    *GangTimedOut    `json:"gangTimedOut,omitempty"`

	// A snapshot (compact.go) is a Snapshot mark, then the events that
	// rebuild the Store as it was: those above, and these, which set
	// what replaying a task's latest attempt alone would not.
	Snapshot       *SnapshotMark   `json:"snapshot,omitempty"`
	StageCounts    *StageCounts    `json:"stageCounts,omitempty"`
	ExecutorCounts *ExecutorCounts `json:"executorCounts,omitempty"`
	Timeline       *TimelineState  `json:"timeline,omitempty"`
	Gang           *GangState      `json:"gang,omitempty"`
}

// AppStarted names the application.
type AppStarted struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	User string `json:"user,omitempty"`
	// Master is "yarn" or local mode's master (local[2]).
	Master  string `json:"master"`
	Session bool   `json:"session,omitempty"`
}

// PoolInfo is a pool's configuration (a Pools event lists them all).
type PoolInfo struct {
	Name     string `json:"name"`
	Mode     string `json:"mode"`
	Weight   int    `json:"weight"`
	MinShare int    `json:"minShare"`
}

// JobSubmitted is a job the driver accepted, with its stages.
type JobSubmitted struct {
	ID     int64       `json:"id"`
	Name   string      `json:"name"`
	Pool   string      `json:"pool"`
	Stages []StageInfo `json:"stages"`
}

// StageInfo is one stage of a submitted job.
type StageInfo struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Tasks int    `json:"tasks"`
	// Parents are the ids of the stages it waits for.
	Parents []int64 `json:"parents,omitempty"`
	GPUs    float64 `json:"gpus,omitempty"` // each task's
	Cores   int     `json:"cores,omitempty"`
	// Gang says its tasks run as a gang (docs/gangs.md): attempt n of
	// each ran together, the gang's attempt n. Logs before it had none.
	Gang bool `json:"gang,omitempty"`
}

// Job states.
const (
	JobRunning   = "running"
	JobSucceeded = "succeeded"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// JobEnded is how a job ended: State is JobSucceeded, JobFailed or
// JobCancelled.
type JobEnded struct {
	ID     int64  `json:"id"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// TaskStarted is an attempt sent to an executor.
type TaskStarted struct {
	Stage    int64    `json:"stage"`
	Index    int      `json:"index"`
	Attempt  int      `json:"attempt"`
	Executor string   `json:"executor"`
	GPUs     []string `json:"gpus,omitempty"`
	// Accels are its accelerators besides GPUs (absent in logs written
	// before they were shown).
	Accels []Resource `json:"accels,omitempty"`
}

// Resource is an accelerator besides GPUs and the exact addresses of it
// an executor or an attempt holds: {"name":"fpga","addresses":["0","1"]}.
type Resource struct {
	Name      string   `json:"name"`
	Addresses []string `json:"addresses"`
}

// Task states.
const (
	TaskRunning   = "running"
	TaskSucceeded = "succeeded"
	TaskFailed    = "failed"
	TaskKilled    = "killed"
)

// TaskEnded is how an attempt ended: State is TaskSucceeded, TaskFailed
// or TaskKilled.
type TaskEnded struct {
	Stage    int64  `json:"stage"`
	Index    int    `json:"index"`
	Attempt  int    `json:"attempt"`
	Executor string `json:"executor"`
	State    string `json:"state"`
	ExitCode int    `json:"exitCode,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// ExecutorAdded is an executor that registered.
type ExecutorAdded struct {
	ID        string   `json:"id"`
	Host      string   `json:"host"`
	Container string   `json:"container,omitempty"`
	Profile   string   `json:"profile,omitempty"`
	Cores     int      `json:"cores,omitempty"`
	GPUs      []string `json:"gpus,omitempty"`
	// Accels are its accelerators besides GPUs, each with its addresses.
	Accels []Resource `json:"accels,omitempty"`
	// LogURL is where a browser reads its task files, each under its
	// name (executor/tasklog): a NodeManager's page of the container's
	// logs.
	LogURL string `json:"logUrl,omitempty"`
}

// ExecutorRemoved is an executor gone: Lost when nobody asked it to go
// (Reason says why), TaskFault when its running tasks were blamed.
type ExecutorRemoved struct {
	ID        string `json:"id"`
	Reason    string `json:"reason"`
	Lost      bool   `json:"lost,omitempty"`
	TaskFault bool   `json:"taskFault,omitempty"`
}

// AppEnded is how the application ended.
type AppEnded struct {
	Succeeded   bool   `json:"succeeded"`
	Diagnostics string `json:"diagnostics,omitempty"`
}

// SnapshotMark opens a snapshot of Events events after it: a Store
// that takes it starts afresh.
type SnapshotMark struct {
	Events int `json:"events"`
}

// StageCounts are a stage's counts and times as a snapshot was taken.
type StageCounts struct {
	Stage     int64      `json:"stage"`
	Succeeded int        `json:"succeeded"`
	Running   int        `json:"running"`
	Failed    int        `json:"failed"`
	Killed    int        `json:"killed"`
	Started   *time.Time `json:"started,omitempty"`
	Ended     *time.Time `json:"ended,omitempty"`
	// Done says every task succeeded.
	Done bool `json:"done,omitempty"`
}

// ExecutorCounts are an executor's counts as a snapshot was taken.
type ExecutorCounts struct {
	ID        string `json:"id"`
	Running   int    `json:"running"`
	Succeeded int    `json:"succeeded"`
	Failed    int    `json:"failed"`
	Killed    int    `json:"killed"`
}

// TimelineState is the timeline as a snapshot was taken.
type TimelineState struct {
	Points []Point       `json:"points"`
	Step   time.Duration `json:"step"`
}

// kinds counts the fields an event sets.
func (e *Event) kinds() int {
	n := 0
	for _, ok := range []bool{e.App != nil, e.Pools != nil, e.Environment != nil, e.JobSubmitted != nil, e.JobEnded != nil, e.TaskStarted != nil,
		e.TaskEnded != nil, e.ExecutorAdded != nil, e.ExecutorRemoved != nil, e.AppEnded != nil, e.Snapshot != nil,
		e.StageCounts != nil, e.ExecutorCounts != nil, e.Timeline != nil, e.GangStarted != nil, e.GangTimedOut != nil, e.Gang != nil} {
		if ok {
			n++
		}
	}
	return n
}
