package core

import (
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Ready is one batch of actions for the caller to carry out, in the order
// of its fields, and when the core next needs a call.
type Ready struct {
	// Launches start task attempts, grouped by executor in the order the
	// executors first appear.
	Launches []TaskLaunch
	// PortRequests ask rank 0's executor of each gang about to start for
	// a port free on its host; the answer comes back with PortPicked, and
	// the gang's launches follow (gang.go).
	PortRequests []PortRequest
	// Kills stop running attempts; their end is reported as usual.
	Kills []scheduler.Kill
	// Drains tell executors whose containers are going back to YARN to
	// have their running tasks checkpoint and stop (drain.go); each
	// attempt's end is reported as usual, killed.
	Drains []Drain
	// Disconnects tell executors to shut down and close their
	// connections: retired, released, lost, or the application ended.
	Disconnects []Disconnect
	// Removed are the executors the core let go of, and why: for the
	// application's history (am/history), not for any action.
	Removed []Removed
	// GangTimeouts are the gangs whose try at acquiring their slots
	// timed out (the notice says so too): for the application's
	// history, not for any action.
	GangTimeouts []scheduler.GangTimeout
	// StartContainers start `spindle executor` in allocated containers;
	// a start that fails is reported with LaunchFailed.
	StartContainers []ContainerStart
	// StopKept are the containers released whose NodeManagers are to
	// stop them, tasks waiting on them: an earlier attempt's (kept.go),
	// or a written-off executor's (cut.go). Report each with KeptStopped
	// once its NodeManager says it completed.
	StopKept []string
	// Allocate, when set, is the next heartbeat to the ResourceManager;
	// its answer comes back with Allocated (or Resynced, or Fail). No
	// other is asked for while it is out.
	Allocate *AllocateRequest
	// GangTasksDone are the tasks of gangs whose whole run succeeded:
	// only now is their success final (a gang task's own report of
	// success is not: DoneOnReport), for the journal to record.
	GangTasksDone []JobTask
	// DrainsStarted are the executors that began draining, and Undrained
	// those of a recommissioned node taking tasks again, for the journal
	// to record: the AM's next attempt, adopting them, goes on draining
	// them (KeptContainer.Drain).
	DrainsStarted []DrainStarted
	Undrained     []scheduler.ExecutorID
	// TaskFailures are the tasks whose attempts failed counted against
	// them, once per failure, for the journal to record: the AM's next
	// attempt counts them again (ResumedJob.Failures).
	TaskFailures []JobTask
	// Finished are the jobs that ended.
	Finished []Summary
	// JobsEnded, in a session, are the jobs that ended, each with the
	// executors it ran tasks on, for the caller to tell them: each then
	// removes ended jobs' task files by spindle.session.taskLogs.*. A
	// one-job application has none: its files are what its user reads
	// once it has ended.
	JobsEnded []JobEnded
	// Notices say what happened that no action shows (an executor lost
	// and whom it blamed, a node excluded, a job started), for the log.
	Notices []Notice
	// Handover, when set, says the AM's own node is being decommissioned
	// and its deadline near (handover.go): write the journal out whole,
	// then call ReleaseAM. HandedOver says the RM has answered the
	// allocate that released the AM's container: leave without
	// unregistering, the executors running on for the next attempt.
	Handover   *Handover
	HandedOver bool
	// Unregister, when set, says the application is over and how: carry
	// out the rest of this batch, then unregister and stop.
	Unregister *Final
	// Next is when the core next needs a call to Ready with nothing else
	// having happened (zero: not until an input).
	Next time.Time
}

// TaskLaunch is one attempt to start on an executor.
type TaskLaunch struct {
	Executor scheduler.ExecutorID
	Attempt  scheduler.AttemptID
	// JobID and StageIndex (the stage's place in the job's spec, from 0)
	// name the attempt's files (executor/tasklog).
	JobID      scheduler.JobID
	StageIndex int
	Job        string
	Stage      string
	TaskCount  int
	// Argv is the command (nil for a built-in), Env the task's own
	// variables from its spec.
	Argv    []string
	Builtin string
	Env     []EnvVar
	// GPUs are the exact addresses the task may use; CPUs its cores.
	GPUs []string
	CPUs int
	// Accels are the exact addresses of each accelerator besides GPUs.
	Accels []scheduler.Assigned
}

// JobEnded is a session's job that ended and the executors that ran its
// tasks, in the order of their first, which have its task files.
type JobEnded struct {
	Job       scheduler.JobID
	Executors []scheduler.ExecutorID
}

// EnvVar is one variable of a task's environment.
type EnvVar struct{ Name, Value string }

// Disconnect tells the caller to send an executor Shutdown with Reason
// and close its connection.
type Disconnect struct {
	Executor scheduler.ExecutorID
	Reason   string
}

// Removed is an executor the core let go of: Lost when nobody asked it
// to go, TaskFault when its running tasks' attempts counted as failed.
type Removed struct {
	Executor  scheduler.ExecutorID
	Reason    string
	Lost      bool
	TaskFault bool
}

// ContainerStart starts an executor in an allocated container with these
// GPU indices on its node, and these of each accelerator.
type ContainerStart struct {
	Container    string
	Node         string
	Profile      scheduler.Profile
	GPUIndices   []string
	AccelIndices []scheduler.Assigned
}

// AllocateRequest is what the next allocate call carries: the asks that
// changed (asks.go), containers to release, exclusion changes and
// progress.
type AllocateRequest struct {
	Asks    []Ask
	Release []string // container ids
	// Exclude and Include change the application's node blacklist: node
	// names as the RM's scheduler knows them.
	Exclude, Include []string
	Progress         float32
}

// Ask is a ResourceRequest: Count containers of Profile's shape
// outstanding under allocation request id ID, replacing what that id
// asked before (YARN's semantics).
type Ask struct {
	ID      int64
	Profile scheduler.Profile
	Count   int
	// Near asks them on a node that already holds one of Profile's
	// executors (ContainerConfig.Pack, pack.go): YARN's node-scope
	// affinity to the profile's allocation tag.
	Near bool
}

// Final is how the application ended.
type Final struct {
	Succeeded   bool
	Diagnostics string
}

// Notice is one thing worth an operator's attention. Fields name what
// it concerns; empty ones are not part of it.
type Notice struct {
	Warning   bool
	Message   string
	Executor  scheduler.ExecutorID
	Container string
	Node      string
	Job       string
	Stage     string
}
