package config

import (
	"math"
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// registry is every key Spindle knows, one row each: the configuration
// reference (README.md and docs/ name the keys of each feature). A new setting is a new row; its spark.* alias, parsing, validation
// and listing follow from the row.
var registry = []Key{
	{Name: "spindle.master", Default: "local[2]", Kind: KindString, check: master,
		Meaning: "yarn, or local[N]: N executors on this machine (local: 1, local[*]: all cores; local[N,F]: F attempts per task)"},
	{Name: "spindle.app.name", Kind: KindString,
		Meaning: "the job's name, over the one its spec gives (spark-submit's --name)"},

	// Executors and tasks.
	{Name: "spindle.executor.instances", Default: "2", Kind: KindInt, check: atLeast(0),
		Meaning: "static executor count (dynamic allocation off)"},
	{Name: "spindle.executor.cores", Default: "1", Kind: KindInt, check: atLeast(1),
		Meaning: "CPU cores per executor"},
	{Name: "spindle.executor.memory", Default: "1g", Kind: KindSize, check: atLeastMiB(1),
		Meaning: "memory per executor (a bare number is MiB)"},
	{Name: "spindle.executor.resource.gpu.amount", Default: "0", Kind: KindInt, check: atLeast(0),
		Meaning: "GPUs per executor (the container asks yarn.io/gpu)"},
	{Name: "spindle.executor.resource.gpu.discoveryScript", Kind: KindString,
		Meaning: "Spark-compatible script printing the executor's GPU addresses"},
	{Name: "spindle.executor.gpuSampleInterval", Default: "5s", Kind: KindDuration, Unit: time.Second,
		Meaning: "how often an executor with GPUs asks nvidia-smi their utilization and memory, for its driver to show (0: never; no nvidia-smi: no figures)"},
	{Name: "spindle.task.cpus", Default: "1", Kind: KindInt, check: atLeast(1),
		Meaning: "CPU cores per task"},
	{Name: "spindle.task.resource.gpu.amount", Default: "0", Kind: KindFloat,
		check: floatCheck("want a whole number of GPUs, or a fraction between 0 and 1 to share one",
			func(f float64) bool { return f >= 0 && (f < 1 || f == math.Trunc(f)) }),
		Meaning: "GPUs per task: a whole number, or a fraction in (0,1) to share a GPU"},
	{Name: "spindle.task.maxFailures", Default: "4", Kind: KindInt, check: between(1, scheduler.MaxAttemptsLimit),
		Meaning: "attempts per task before its job fails (at most 100)"},
	{Name: "spindle.task.retry.backoff", Default: "200ms", Kind: KindDuration, Unit: time.Millisecond, check: positiveDuration,
		Meaning: "wait before a failed task runs again; it doubles after each failure of the task"},
	{Name: "spindle.task.retry.maxBackoff", Default: "10s", Kind: KindDuration, Unit: time.Millisecond, check: positiveDuration,
		Meaning: "longest wait before a failed task runs again"},
	{Name: "spindle.locality.wait", Default: "3s", Kind: KindDuration, Unit: time.Millisecond,
		Meaning: "how long a task waits for an executor on a preferred host"},
	{Name: "spindle.task.preemption.gracePeriod", Default: "10s", Kind: KindDuration, Unit: time.Second, check: positiveDuration,
		Meaning: "YARN: how long a task whose container is preempted or whose node is decommissioned has, told to checkpoint ($SPINDLE_PREEMPTED_FILE, SIGTERM), before SIGKILL; keep it below the RM's yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill (15s) less the allocate interval"},
	{Name: "spindle.task.log.maxBytes", Default: "64m", Kind: KindBytes, check: logCap,
		Meaning: "most of each task's stdout and stderr kept, the newest (a bare number is bytes; 0 keeps everything)"},

	// Scheduling across pools.
	{Name: "spindle.scheduler.mode", Default: "FIFO", Kind: KindEnum, Values: []string{"FIFO", "FAIR"},
		Meaning: "order of work across pools: FIFO or FAIR"},
	{Name: "spindle.scheduler.fairness", Default: "tasks", Kind: KindEnum, Values: []string{"tasks", "drf"},
		Meaning: "what FAIR mode shares between pools: running tasks (Spark's rule), or drf, dominant resource share (cpus and GPUs against the session's executors)"},
	{Name: "spindle.scheduler.allocation.file", Kind: KindString,
		Meaning: "fair scheduler pools file (Spark's fairScheduler.xml format)"},
	{Name: "spindle.scheduler.pool", Kind: KindString,
		Meaning: "the pool the job runs in, over the one its spec gives (--pool)"},

	// Gang stages (docs/gangs.md).
	{Name: "spindle.gang.timeout", Default: "60s", Kind: KindDuration, Unit: time.Second, check: positiveDuration,
		Meaning: "longest a gang stage waits, per try, to have every task's slot at once; then it lets go of what it held (hard) or runs as an ordinary stage (soft)"},
	{Name: "spindle.gang.maxRetries", Default: "2", Kind: KindInt, check: atLeast(0),
		Meaning: "tries after the first a gang has to acquire its slots (hard style) before its job fails"},
	{Name: "spindle.gang.style", Default: "hard", Kind: KindEnum, Values: []string{"hard", "soft"},
		Meaning: "hard: a gang that timed out retries, then fails its job; soft: it runs as an ordinary stage after its first timeout, with a notice"},

	// Sessions (docs/sessions.md, "What a session holds").
	{Name: "spindle.session.maxPendingTasks", Default: "4000000", Kind: KindInt, check: atLeast(0),
		Meaning: "tasks a session's jobs may have waiting to run, all together; a job that would pass it is refused (0: no limit)"},
	{Name: "spindle.session.maxPendingTasksPerJob", Default: "2000000", Kind: KindInt, check: atLeast(0),
		Meaning: "tasks one job of a session may have waiting, all its tasks when it is submitted; a job with more is refused (0: no limit)"},
	{Name: "spindle.session.maxRunningJobs", Default: "10000", Kind: KindInt, check: atLeast(0),
		Meaning: "jobs of a session not yet ended; a job past it is refused until one ends (0: no limit)"},
	{Name: "spindle.session.maxExecutorProfiles", Default: "8", Kind: KindInt, check: atLeast(1),
		Meaning: "executor profiles a session may hold, its default one included; a job whose stage needs a new shape past it is refused"},

	// Excluding failing hosts.
	{Name: "spindle.excludeOnFailure.enabled", Default: "false", Kind: KindBool,
		Meaning: "stop placing tasks on hosts where tasks keep failing"},
	{Name: "spindle.excludeOnFailure.maxFailedTasksPerHost", Default: "2", Kind: KindInt, check: atLeast(1),
		Meaning: "failed tasks after which a host is excluded"},
	{Name: "spindle.excludeOnFailure.timeout", Default: "1h", Kind: KindDuration, Unit: time.Millisecond,
		Meaning: "how long a host stays excluded"},
	{Name: "spindle.excludeOnFailure.application.maxFailedExecutorsPerNode", Default: "2", Kind: KindInt, check: atLeast(1),
		Meaning: "YARN: failed executor containers after which their host is excluded from the asks"},
	{Name: "spindle.yarn.executor.launch.excludeOnFailure.enabled", Default: "true", Kind: KindBool,
		Meaning: "YARN: exclude hosts where executor containers keep failing (for spindle.excludeOnFailure.timeout)"},
	{Name: "spindle.executor.maxNumFailures", Default: "0", Kind: KindInt, check: atLeast(0),
		Meaning: "YARN: executor failures after which the application fails; 0: max(2 × executors, 3), executors being maxExecutors under dynamic allocation"},
	{Name: "spindle.scheduler.excludeOnFailure.unschedulableTaskSetTimeout", Default: "120s", Kind: KindDuration, Unit: time.Second,
		Meaning: "how long a stage whose hosts are all excluded waits for a new executor before it fails"},

	// Dynamic allocation.
	{Name: "spindle.dynamicAllocation.enabled", Default: "false", Kind: KindBool,
		Meaning: "grow and shrink the executor set with demand"},
	{Name: "spindle.dynamicAllocation.minExecutors", Default: "0", Kind: KindInt, check: atLeast(0),
		Meaning: "fewest executors kept"},
	{Name: "spindle.dynamicAllocation.maxExecutors", Default: unlimited, Kind: KindInt, check: atLeast(1),
		Meaning: "most executors asked for (default unlimited)"},
	{Name: "spindle.dynamicAllocation.initialExecutors", DefaultFrom: "spindle.dynamicAllocation.minExecutors", Kind: KindInt, check: atLeast(0),
		Meaning: "executors asked for at start (default: minExecutors)"},
	{Name: "spindle.dynamicAllocation.executorIdleTimeout", Default: "60s", Kind: KindDuration, Unit: time.Second,
		Meaning: "idle time after which an executor is released (spindle policy: at most surplusIdleTimeout, a longer value is refused; the warm pool waits warmPool.idleTimeout)"},
	{Name: "spindle.dynamicAllocation.schedulerBacklogTimeout", Default: "1s", Kind: KindDuration, Unit: time.Second, check: positiveDuration,
		Meaning: "how long tasks wait unplaced before more executors are asked for"},
	{Name: "spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout", DefaultFrom: "spindle.dynamicAllocation.schedulerBacklogTimeout", Kind: KindDuration, Unit: time.Second, check: positiveDuration,
		Meaning: "interval between further asks while the backlog lasts (default: schedulerBacklogTimeout)"},
	{Name: "spindle.dynamicAllocation.executorAllocationRatio", Default: "1.0", Kind: KindFloat,
		check:   floatCheck("want a number more than 0 and at most 1", func(f float64) bool { return f > 0 && f <= 1 }),
		Meaning: "fraction of the executors the backlog needs that are asked for, in (0,1]"},
	{Name: "spindle.dynamicAllocation.policy", Default: "spindle", Kind: KindEnum, Values: []string{"spindle", "spark"},
		Meaning: "spindle, or spark for Spark's exact behaviour"},
	{Name: "spindle.dynamicAllocation.warmPool.size", Default: "1", Kind: KindInt, check: atLeast(0),
		Meaning: "idle executors kept ready beyond current demand (spindle policy)"},
	{Name: "spindle.dynamicAllocation.warmPool.idleTimeout", Default: "60s", Kind: KindDuration, Unit: time.Second,
		Meaning: "idle time after which a warm-pool executor is released (spindle policy)"},
	{Name: "spindle.dynamicAllocation.surplusIdleTimeout", Default: "15s", Kind: KindDuration, Unit: time.Second,
		Meaning: "idle time after which an executor above the target is released, or executorIdleTimeout if that is shorter (spindle policy)"},
	{Name: "spindle.dynamicAllocation.rampDownDelay", Default: "5s", Kind: KindDuration, Unit: time.Second,
		Meaning: "how long the target stays lower before executors are released (spindle policy)"},

	// Local mode.
	{Name: "spindle.worker.resourcesFile", Kind: KindString,
		Meaning: "local mode: Spark's worker resources JSON"},
	{Name: "spindle.worker.resource.gpu.addresses", Kind: KindString,
		Meaning: "local mode: GPU addresses, e.g. 0,1,2,3 (fake GPUs allowed)"},
	{Name: "spindle.worker.resource.gpu.discoveryScript", Kind: KindString,
		Meaning: "local mode: Spark-compatible GPU discovery script"},
	{Name: "spindle.worker.cleanup.appDataTtl", Default: "7d", Kind: KindDuration, Unit: time.Second,
		Meaning: "local mode: an ended application's logs and working directories are removed this long after it ended, when another starts (0: kept)"},

	// A session's task files: each executor keeps the most recently ended
	// jobs' (docs/sessions.md, "Disk use").
	{Name: "spindle.session.taskLogs.maxJobs", Default: "100", Kind: KindInt, check: atLeast(0),
		Meaning: "a session: how many ended jobs' task files each executor keeps, the most recently ended (0: no limit)"},
	{Name: "spindle.session.taskLogs.maxBytes", Default: "1g", Kind: KindBytes,
		Meaning: "a session: the most bytes of ended jobs' task files each executor keeps, removing the oldest ended jobs' first (a bare number is bytes; 0: no limit)"},

	// The web UI and the event log (docs/ui.md).
	{Name: "spindle.ui.enabled", Default: "true", Kind: KindBool,
		Meaning: "local mode: serve the web UI and REST API on a loopback port (on YARN the tracking URL always serves them)"},
	{Name: "spindle.ui.port", Default: "0", Kind: KindInt, check: between(0, 65535),
		Meaning: "local mode: the loopback port of the web UI (0: any free port)"},
	{Name: "spindle.ui.retainedJobs", Default: "1000", Kind: KindInt, check: atLeast(1),
		Meaning: "ended jobs the UI and the event log's reader keep, the newest"},
	{Name: "spindle.ui.retainedTasks", Default: "100000", Kind: KindInt, check: between(1, 1<<24), // history.MaxRetainedTasks
		Meaning: "tasks of a stage the UI lists one by one (the lowest indices); its counts cover them all"},
	{Name: "spindle.ui.retainedAttempts", Default: "8", Kind: KindInt, check: atLeast(1),
		Meaning: "attempts of a listed task the UI keeps: its first and its latest (those between are counted)"},
	{Name: "spindle.eventLog.enabled", Default: "true", Kind: KindBool,
		Meaning: "log the application's events for spindle history"},
	{Name: "spindle.eventLog.dir", Kind: KindString,
		Meaning: "where event logs go, one directory per application (default: /user/$USER/.spindle/events on fs.defaultFS on YARN; $XDG_STATE_HOME/spindle/events, or ~/.local/state/spindle/events, locally)"},
	{Name: "spindle.eventLog.maxApps", Default: "100", Kind: KindInt, check: atLeast(0),
		Meaning: "ended applications whose event logs spindle.eventLog.dir keeps, the most recently ended; drivers as they start and spindle history as it lists remove the others (0: no limit)"},
	{Name: "spindle.eventLog.maxAge", Default: "7d", Kind: KindDuration, Unit: time.Second,
		Meaning: "how long after its application ended an event log is kept, as Spark's spark.history.fs.cleaner.maxAge (0: no limit)"},

	// YARN.
	{Name: "spindle.yarn.queue", Default: "default", Kind: KindString,
		Meaning: "YARN queue the application is submitted to"},
	{Name: "spindle.yarn.tags", Kind: KindString,
		Meaning: "comma-separated tags of the YARN application (spindle list and the RM show them)"},
	{Name: "spindle.yarn.am.memory", Default: "256m", Kind: KindSize, check: atLeastMiB(1),
		Meaning: "ApplicationMaster container memory (a bare number is MiB)"},
	{Name: "spindle.yarn.am.cores", Default: "1", Kind: KindInt, check: atLeast(1),
		Meaning: "ApplicationMaster container vcores"},
	{Name: "spindle.log.level", Default: "info", Kind: KindEnum, Values: []string{"error", "warn", "info", "debug", "trace"},
		Meaning: "how much the ApplicationMaster and executors log to their containers' stderr (yarn logs); local mode logs warnings unless this is set or --verbose is given"},
	{Name: "spindle.log.maxBytes", Default: "64m", Kind: KindBytes, check: logRollCap,
		Meaning: "size at which a session's driver.log, an executor's log and the ApplicationMaster's roll over to NAME.1 (a bare number is bytes; 0: never)"},
	{Name: "spindle.log.maxFiles", Default: "4", Kind: KindInt, check: atLeast(0),
		Meaning: "rolled-over logs kept beside each current one, NAME.1 (the newest) to NAME.N"},
	{Name: "spindle.driver.bindAddress", Kind: KindString, check: bindAddress,
		Meaning: "YARN: the address the ApplicationMaster listens on for its executors and tracking page (default: the host it advertises, NM_HOST; 0.0.0.0: every interface)"},
	{Name: "spindle.yarn.maxAppAttempts", Default: "2", Kind: KindInt, check: atLeast(1),
		Meaning: "ApplicationMaster attempts, capped by the cluster's yarn.resourcemanager.am.max-attempts (YARN's default 2); a session's default is 10 (docs/reliability.md)"},
	{Name: "spindle.yarn.am.keepContainers", Default: "true", Kind: KindBool,
		Meaning: "keep the executors' containers when the ApplicationMaster fails: its next attempt adopts them and their running tasks (docs/reliability.md)"},
	{Name: "spindle.yarn.am.journal", Default: "true", Kind: KindBool,
		Meaning: "journal the ApplicationMaster's work in the staging directory for its next attempt to go on with (docs/reliability.md); false: a next attempt starts the work over, releasing the containers YARN kept and waiting for their end (a Kerberos cluster has no journal either way)"},
	{Name: "spindle.yarn.am.adoptTimeout", Default: "30s", Kind: KindDuration, Unit: time.Second, check: positiveDuration,
		Meaning: "how long an ApplicationMaster's next attempt waits for the executors YARN kept to register again before it places tasks; those not back by then are released and their tasks run again"},
	{Name: "spindle.yarn.executor.rejoinTimeout", Default: "60s", Kind: KindDuration, Unit: time.Second,
		Meaning: "with spindle.yarn.am.keepContainers, how long an executor whose ApplicationMaster is gone keeps its tasks running for the next attempt to reach it (0: it stops them at once)"},
	{Name: "spindle.yarn.am.attemptFailuresValidityInterval", Default: "0", Kind: KindDuration, Unit: time.Millisecond,
		Meaning: "count only the ApplicationMaster failures of this last interval against spindle.yarn.maxAppAttempts, as Spark's spark.yarn.am.attemptFailuresValidityInterval (0: every failure counts); a session's default is 1h, so that failures spread over its life do not add up to its end"},
	{Name: "spindle.yarn.stagingDir", Default: "/user/$USER/.spindle", Kind: KindString,
		Meaning: "staging directory on fs.defaultFS ($USER is the submitting user)"},
	{Name: "spindle.yarn.executor.nodeLabelExpression", Kind: KindString,
		Meaning: "YARN node label expression for executor containers"},
	// Placement constraints (docs/yarn.md, Placement): asked as YARN
	// SchedulingRequests, which the cluster's placement-constraints handler
	// must support.
	{Name: "spindle.yarn.executor.maxPerNode", Default: "0", Kind: KindInt, check: atLeast(0),
		Meaning: "at most this many of the application's executors of one shape on a node, as a YARN placement constraint (0: no limit)"},
	{Name: "spindle.yarn.executor.placement", Default: "none", Kind: KindEnum, Values: []string{"none", "spread", "pack"},
		Meaning: "spread: executors of one shape spread over nodes, one a node (anti-affinity); pack: all on the node of the first (node-scope affinity, e.g. a stage's GPUs on one NVLink node); as YARN placement constraints"},
	{Name: "spindle.yarn.executor.nodeAttributes", Kind: KindString,
		Meaning: "YARN node attribute expression the executors' nodes must satisfy, e.g. gpu_type=A100 or AND(gpu_type=A100:os!=centos7) (names with or without the rm.yarn.io/ prefix)"},
	{Name: "spindle.yarn.scheduler.heartbeat.interval-ms", Default: "1s", Kind: KindDuration, Unit: time.Millisecond, check: positiveDuration,
		Meaning: "ApplicationMaster's allocate interval once no container is owed (Spark's default is 3s)"},
	{Name: "spindle.yarn.scheduler.initial-allocation.interval", Default: "200ms", Kind: KindDuration, Unit: time.Millisecond, check: positiveDuration,
		Meaning: "first allocate interval while containers are owed; it doubles up to the heartbeat interval"},
	// Accelerators besides GPUs (docs/yarn.md, "Accelerators"); their
	// spindle.{executor,task,worker}.resource.NAME.* keys are in
	// resource_keys.go.
	{Name: "spindle.yarn.resourceMapping", Kind: KindString, check: resourceMapping,
		Meaning: "YARN: the resource type each resource besides gpu (yarn.io/gpu) and fpga (yarn.io/fpga) is asked as, e.g. tpu=example.com/tpu,vpu=example.com/vpu"},
	{Name: "spindle.yarn.mode", Default: "coarse", Kind: KindEnum, Values: []string{"coarse", "fine"},
		Meaning: "coarse (long-lived executors) or fine (a container per task)"},

	// Executors in a Docker image (docs/yarn.md, "Executors in a Docker image").
	{Name: "spindle.yarn.executor.docker.image", Kind: KindString,
		Meaning: "YARN: run executor containers in this Docker image (YARN_CONTAINER_RUNTIME_TYPE=docker); the cluster must allow Docker containers and the image's registry"},
	{Name: "spindle.yarn.executor.docker.mounts", Kind: KindString,
		Meaning: "YARN: comma-separated src:dst:ro|rw mounts of host paths into the executors' image, each one the cluster's mount whitelist allows"},
	{Name: "spindle.yarn.executor.docker.network", Kind: KindString,
		Meaning: "YARN: the Docker network of the executors' containers (host, bridge, ...), one the cluster allows"},

	// Kerberos (hadoop.security.authentication=kerberos).
	{Name: "spindle.kerberos.principal", Kind: KindString,
		Meaning: "principal to log in as with spindle.kerberos.keytab (default: the ticket cache kinit wrote, KRB5CCNAME)"},
	{Name: "spindle.kerberos.keytab", Kind: KindString,
		Meaning: "keytab of spindle.kerberos.principal; shipped to a session's ApplicationMaster so it can log in again and fetch fresh tokens"},
	{Name: "spindle.kerberos.access.hadoopFileSystems", Kind: KindString,
		Meaning: "comma-separated hdfs:// file systems besides fs.defaultFS whose delegation tokens the application gets"},
	{Name: "spindle.kerberos.renewal.ratio", Default: "0.75", Kind: KindFloat,
		check:   floatCheck("want a fraction between 0 and 1", func(f float64) bool { return f > 0 && f < 1 }),
		Meaning: "fraction of a delegation token's lifetime after which a session's ApplicationMaster fetches fresh ones"},
	{Name: "spindle.acls.enable", Default: "false", Kind: KindBool,
		Meaning: "check who may view and modify the application (YARN's application ACLs, and a secure session's clients)"},
	{Name: "spindle.ui.view.acls", Kind: KindString,
		Meaning: "users and groups, besides the owner, who may view the application (Hadoop's \"users groups\" form; * is everyone)"},
	{Name: "spindle.modify.acls", Kind: KindString,
		Meaning: "users and groups, besides the owner, who may modify it: kill it, submit to and cancel jobs of a session"},
}

// byName indexes the registry.
var byName = func() map[string]Key {
	m := make(map[string]Key, len(registry))
	for _, k := range registry {
		m[k.Name] = k
	}
	return m
}()

// Keys returns the registry: every key Spindle knows, in table order.
func Keys() []Key {
	keys := slices.Clone(registry)
	for i := range keys {
		keys[i].Values = slices.Clone(keys[i].Values) // callers cannot edit the registry
	}
	return keys
}
