package executor

// The launch contract: the variables through which a launcher (local
// processes, or the ApplicationMaster's YARN containers) starts `spindle
// executor`. They are defined here once; a task never sees them (every
// SPINDLE_* variable is Reserved), and the GPU ones are in discovery.go.
const (
	// EnvDriverAddress is host:port of the driver's executor channel.
	EnvDriverAddress = "SPINDLE_DRIVER_ADDRESS"
	// EnvAppID is the application's id.
	EnvAppID = "SPINDLE_APP_ID"
	// EnvExecutorID is the executor's id: locally "exec-N", on YARN its
	// container id.
	EnvExecutorID = "SPINDLE_EXECUTOR_ID"
	// EnvExecutorCores is how many cores the executor offers tasks.
	EnvExecutorCores = "SPINDLE_EXECUTOR_CORES"
	// EnvExecutorGPUs is how many GPUs it must find.
	EnvExecutorGPUs = "SPINDLE_EXECUTOR_GPUS"
	// EnvExecutorLogDir is where task output and resources files go: on
	// YARN the container's log directory, so that log aggregation and
	// `yarn logs` find them.
	EnvExecutorLogDir = "SPINDLE_EXECUTOR_LOG_DIR"
	// EnvGPUDiscoveryScript is spindle.executor.resource.gpu.discoveryScript.
	EnvGPUDiscoveryScript = "SPINDLE_EXECUTOR_GPU_DISCOVERY_SCRIPT"
	// EnvTaskLogMaxBytes is spindle.task.log.maxBytes.
	EnvTaskLogMaxBytes = "SPINDLE_EXECUTOR_TASK_LOG_MAX_BYTES"
	// EnvSecretFrom says where the application secret is (see ReadSecret).
	EnvSecretFrom = "SPINDLE_SECRET_FROM"
)
