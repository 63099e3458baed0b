package core

import (
	"errors"
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Config configures a Core. deploy/settings.Core builds it from settings
// for every process that runs one: the AM, local mode, a session and
// `spindle sim`.
type Config struct {
	AppID string
	// AMAttempt is the ApplicationMaster's attempt of the application,
	// from 1 (0: the first, as in local mode): it numbers its new jobs,
	// stages and task attempts in ranges of its own (ids.go).
	AMAttempt int
	Scheduler scheduler.Config
	// Profiles are the shapes of the executors; the first is the default.
	Profiles []scheduler.Profile
	// TaskAccels are the accelerators besides GPUs every task asks for
	// (spindle.task.resource.NAME.amount): application-wide, as the
	// configuration that sets them.
	TaskAccels scheduler.Accelerators
	// HeartbeatTimeout declares an executor lost when it has sent nothing
	// for this long; zero never does (a simulation's executors do not
	// heartbeat).
	HeartbeatTimeout time.Duration
	// LossReasonWait, when positive, is how long an executor whose
	// connection ended waits, taking no new tasks, for its container's exit
	// status to say how its process ended (on YARN it arrives a heartbeat
	// or two later) before it is declared lost, blamelessly. Zero declares
	// it lost at once.
	LossReasonWait time.Duration
	// Allocation, when set, runs dynamic allocation every AllocationTick
	// (default 100ms, Spark's): it moves each profile's container target
	// and picks idle executors to release. It needs Containers.
	Allocation     *dynalloc.Config
	AllocationTick time.Duration
	// OneTaskPerExecutor retires each executor as soon as its first task
	// ends (fine-grained mode: a container per task).
	OneTaskPerExecutor bool
	// Session keeps the application running between jobs: it ends only
	// on Fail. Otherwise it ends with its last job (one job per
	// application, as `spindle submit` runs).
	Session bool
	// Limits bound what a session's clients may queue (limits.go).
	Limits SessionLimits
	// DrainGrace is how long a draining executor's tasks have between
	// SIGTERM and SIGKILL once told to checkpoint and stop
	// (spindle.task.preemption.gracePeriod, drain.go): a preempted
	// container is released at the latest this long after the RM named
	// it, and a decommissioning node's tasks are told this long before
	// its timeout. Default DefaultDrainGrace.
	DrainGrace time.Duration
	// FixedExecutors, in local mode, is how many executors of the first
	// profile's shape the caller starts: a gang stage that could never
	// fit them at once is refused at submit.
	FixedExecutors int
	// Containers, when set, has the core keep executor containers running
	// on YARN: its ask table, their GPU indices, node health. Nil in local
	// mode, where the caller starts a fixed set of executors itself.
	Containers *ContainerConfig
}

// ContainerConfig is what the core needs to keep executor containers.
type ContainerConfig struct {
	// Initial is how many executors of each profile to keep at first
	// (spindle.executor.instances); with Allocation, its initial target
	// is used instead. A stage shape (shape_targets.go) has, without
	// Allocation, as many as its tasks fill, at most its count here or
	// else the first profile's; with Allocation, none at first.
	Initial map[scheduler.ProfileID]int
	// MaxGPUsPerNode is the most GPUs a node has (the RM's maximum
	// allocation): the range of the GPU indices given out per node.
	MaxGPUsPerNode int
	// MaxMemoryMB and MaxCores are the RM's maximum allocation (0:
	// unknown): a session refuses a stage whose own shape passes them.
	MaxMemoryMB int64
	MaxCores    int
	// MaxAccelsPerNode is, by accelerator name, the most of it a node has
	// (the RM's maximum allocation of its resource type).
	MaxAccelsPerNode map[string]int
	// Executor failures (node_health.go): a node is excluded after
	// MaxFailuresPerNode of them (0: never) for ExcludeTimeout; the
	// application fails after MaxFailures in all (0: no limit) or once
	// every node is excluded.
	MaxFailuresPerNode int
	ExcludeTimeout     time.Duration
	MaxFailures        int
	// Heartbeat is the allocate interval once nothing is owed (default
	// 1s). While containers are owed it starts at InitialAllocation
	// (default 200ms) and doubles up to Heartbeat, as Spark's does.
	Heartbeat         time.Duration
	InitialAllocation time.Duration
	// Pack asks each profile's executors onto one node
	// (spindle.yarn.executor.placement=pack, pack.go).
	Pack bool
	// CutStopWait bounds how long the running tasks of an executor
	// written off with no exit status wait, from its connection's end,
	// for its container to be known stopped before they run again
	// (cut.go): by then it has stopped them itself (handover.StopWait:
	// its rejoin timeout, their grace to stop, slack). Zero holds
	// nothing: they run again at once.
	CutStopWait time.Duration
	// AMContainer and AMNode (NodeId, host:port) are the AM's own
	// container and its node, whose decommissioning the AM hands the
	// application over for (handover.go); empty: not known.
	AMContainer, AMNode string
}

// DefaultDrainGrace is Config.DrainGrace's default, the key's: below
// the 15 s YARN's preemption gives an application by default
// (max_wait_before_kill), with room for an allocate heartbeat.
const DefaultDrainGrace = 10 * time.Second

func (c Config) withDefaults() (Config, error) {
	if len(c.Profiles) == 0 {
		return c, errors.New("no executor profile")
	}
	if c.HeartbeatTimeout < 0 || c.LossReasonWait < 0 || c.AllocationTick < 0 || c.DrainGrace < 0 {
		return c, fmt.Errorf("negative interval: heartbeat timeout %v, loss reason wait %v, allocation tick %v, drain grace %v",
			c.HeartbeatTimeout, c.LossReasonWait, c.AllocationTick, c.DrainGrace)
	}
	if c.DrainGrace == 0 {
		c.DrainGrace = DefaultDrainGrace
	}
	if c.Limits.MaxPendingTasks < 0 || c.Limits.MaxPendingTasksPerJob < 0 || c.Limits.MaxRunningJobs < 0 {
		return c, fmt.Errorf("negative session limit: %d pending tasks in all, %d per job, %d running jobs", c.Limits.MaxPendingTasks,
			c.Limits.MaxPendingTasksPerJob, c.Limits.MaxRunningJobs)
	}
	if c.AllocationTick == 0 {
		c.AllocationTick = 100 * time.Millisecond
	}
	if c.Allocation != nil && c.Containers == nil {
		return c, errors.New("dynamic allocation needs containers to allocate")
	}
	if cc := c.Containers; cc != nil {
		k := *cc
		if k.Heartbeat <= 0 {
			k.Heartbeat = time.Second
		}
		if k.InitialAllocation <= 0 {
			k.InitialAllocation = 200 * time.Millisecond
		}
		c.Containers = &k
	}
	return c, nil
}
