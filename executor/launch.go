package executor

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// The launch contract's variables. Their names are a contract with running
// containers, so they never change; a task never sees them (every
// SPINDLE_* variable is Reserved). The GPU lists' names are in
// discovery.go, which reads them among an executor's other GPU sources.
const (
	envDriverAddress      = "SPINDLE_DRIVER_ADDRESS"
	envAppID              = "SPINDLE_APP_ID"
	envExecutorID         = "SPINDLE_EXECUTOR_ID"
	envExecutorCores      = "SPINDLE_EXECUTOR_CORES"
	envExecutorGPUs       = "SPINDLE_EXECUTOR_GPUS"
	envExecutorLogDir     = "SPINDLE_EXECUTOR_LOG_DIR"
	envGPUDiscoveryScript = "SPINDLE_EXECUTOR_GPU_DISCOVERY_SCRIPT"
	envTaskLogMaxBytes    = "SPINDLE_EXECUTOR_TASK_LOG_MAX_BYTES"
	envSecretFrom         = "SPINDLE_SECRET_FROM"
	envLogLevel           = "SPINDLE_LOG_LEVEL"
	envLogFile            = "SPINDLE_EXECUTOR_LOG_FILE"
	envLogMaxBytes        = "SPINDLE_EXECUTOR_LOG_MAX_BYTES"
	envLogMaxFiles        = "SPINDLE_EXECUTOR_LOG_MAX_FILES"
	envTaskLogsMaxJobs    = "SPINDLE_EXECUTOR_TASK_LOGS_MAX_JOBS"
	envTaskLogsMaxBytes   = "SPINDLE_EXECUTOR_TASK_LOGS_MAX_BYTES"
	envRejoinTimeout      = "SPINDLE_EXECUTOR_REJOIN_TIMEOUT"
	envGPUSampleInterval  = "SPINDLE_EXECUTOR_GPU_SAMPLE_INTERVAL"
)

// Launch is everything a launcher (local processes, or the
// ApplicationMaster's YARN containers) tells `spindle executor`, through
// its environment: the launcher builds one and hands over Env (or
// Environ); the executor reads it back with LaunchFromEnv.
//
// A launcher may hand it over in parts, each the Env of a Launch holding
// only that part's fields, since Env leaves out those not set. On YARN the
// ApplicationMaster puts the application's part (DriverAddress, AppID,
// GPUDiscoveryScript, TaskLogMaxBytes, SecretFrom, LogLevel, LogMaxBytes,
// LogMaxFiles, TaskLogs, RejoinTimeout, GPUSampleInterval) in the launch context its containers share, each
// container's (ExecutorID, Cores, GPUs, AMGPUIndices) in that container's,
// and LogDir and LogFile on the command line: only the NodeManager knows
// the container's log directory, and it expands <LOG_DIR> there.
type Launch struct {
	// DriverAddress is host:port of the driver's executor channel.
	DriverAddress string
	// AppID is the application's id.
	AppID string
	// ExecutorID is the executor's id: locally "exec-N", on YARN its
	// container id.
	ExecutorID string
	// Cores is how many cores the executor offers tasks.
	Cores int
	// GPUs is how many GPUs it must find (DiscoverGPUs).
	GPUs int
	// GPUAddresses are its GPUs when the launcher knows them (local mode):
	// DiscoverGPUs's first source (EnvExecutorGPUAddresses).
	GPUAddresses []string
	// AMGPUIndices are the indices the ApplicationMaster picked for its
	// container: DiscoverGPUs's last resort (EnvAMGPUIndices).
	AMGPUIndices []string
	// LogDir is where task output and resources files go: on YARN the
	// container's log directory, so that log aggregation and `yarn logs`
	// find them.
	LogDir string
	// GPUDiscoveryScript is spindle.executor.resource.gpu.discoveryScript.
	GPUDiscoveryScript string
	// TaskLogMaxBytes is spindle.task.log.maxBytes (0: no cap).
	TaskLogMaxBytes int64
	// SecretFrom says where the application secret is: "stdin" or
	// "credentials" (see ReadSecret).
	SecretFrom string
	// LogLevel is the executor's log level (spindle.log.level): one of
	// logrus's names; empty means info.
	LogLevel string
	// LogFile, when set, is where the executor logs, rolling over at
	// LogMaxBytes (spindle.log.maxBytes; 0: never) and keeping LogMaxFiles
	// old files (spindle.log.maxFiles); it is the executor's standard
	// error too, so that a crash lands there. Empty: it logs to its
	// standard error as it is.
	LogFile     string
	LogMaxBytes int64
	LogMaxFiles int
	// TaskLogs is how much of ended jobs' task files the executor keeps
	// when a session tells it which jobs ended
	// (spindle.session.taskLogs.*; zero fields: no limit).
	TaskLogs tasklog.Policy
	// RejoinTimeout is how long an executor whose driver connection ended
	// keeps its tasks running for a next ApplicationMaster attempt to
	// reach it (rejoin.go): it listens for one, and tells every driver
	// where. 0: none; it stops its tasks and exits at once.
	RejoinTimeout time.Duration
	// GPUSampleInterval is spindle.executor.gpuSampleInterval: how often
	// the executor asks nvidia-smi what its GPUs are doing
	// (gpu_sampler.go). 0: never.
	GPUSampleInterval time.Duration
	// Accels are its accelerators besides GPUs (accelerators.go).
	Accels []Accelerator
}

// Env returns l's variables by name, leaving out the fields not set: empty
// strings and lists, numbers of 0 that mean "no limit" or "none" (as
// when absent), and Cores and GPUs of 0 but beside an ExecutorID: an
// executor's own part says how many it has, 0 GPUs included.
func (l Launch) Env() map[string]string {
	env := map[string]string{}
	set := func(name, value string) {
		if value != "" {
			env[name] = value
		}
	}
	count := func(name string, n int) {
		if n != 0 || l.ExecutorID != "" {
			env[name] = strconv.Itoa(n)
		}
	}
	// A limit of 0 is none, as when absent.
	limit := func(name string, n int64) {
		if n != 0 {
			env[name] = strconv.FormatInt(n, 10)
		}
	}
	set(envDriverAddress, l.DriverAddress)
	set(envAppID, l.AppID)
	set(envExecutorID, l.ExecutorID)
	count(envExecutorCores, l.Cores)
	count(envExecutorGPUs, l.GPUs)
	set(EnvExecutorGPUAddresses, strings.Join(l.GPUAddresses, ","))
	set(EnvAMGPUIndices, strings.Join(l.AMGPUIndices, ","))
	set(envExecutorLogDir, l.LogDir)
	set(envGPUDiscoveryScript, l.GPUDiscoveryScript)
	limit(envTaskLogMaxBytes, l.TaskLogMaxBytes)
	set(envSecretFrom, l.SecretFrom)
	set(envLogLevel, l.LogLevel)
	set(envLogFile, l.LogFile)
	limit(envLogMaxBytes, l.LogMaxBytes)
	limit(envLogMaxFiles, int64(l.LogMaxFiles))
	limit(envTaskLogsMaxJobs, int64(l.TaskLogs.MaxJobs))
	limit(envTaskLogsMaxBytes, l.TaskLogs.MaxBytes)
	for name, d := range map[string]time.Duration{envRejoinTimeout: l.RejoinTimeout, envGPUSampleInterval: l.GPUSampleInterval} {
		if d != 0 {
			env[name] = d.String()
		}
	}
	acceleratorsEnv(env, l.Accels)
	return env
}

// Environ is Env as NAME=value entries sorted by name, for a process's
// environment or a shell command line. Values are not quoted.
func (l Launch) Environ() []string {
	env := l.Env()
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// LaunchFromEnv reads an executor's launch from its environment (lookup is
// os.LookupEnv, or a test's) and checks it is whole: an executor is
// started by a driver, with every part of it. An error names the variable
// and its value.
func LaunchFromEnv(lookup func(string) (string, bool)) (Launch, error) {
	get := func(k string) string { v, _ := lookup(k); return v }
	var missing []string
	for _, k := range []string{envExecutorID, envDriverAddress, envExecutorLogDir, envSecretFrom} {
		if get(k) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return Launch{}, fmt.Errorf("executor: %s not set (it is started by a driver, not by hand)", strings.Join(missing, ", "))
	}
	l := Launch{DriverAddress: get(envDriverAddress), AppID: get(envAppID), ExecutorID: get(envExecutorID), LogDir: get(envExecutorLogDir),
		GPUDiscoveryScript: get(envGPUDiscoveryScript), SecretFrom: get(envSecretFrom), LogLevel: get(envLogLevel), LogFile: get(envLogFile)}
	if l.SecretFrom != "stdin" && l.SecretFrom != "credentials" {
		return Launch{}, fmt.Errorf("executor: %s=%q: want stdin or credentials", envSecretFrom, l.SecretFrom)
	}
	if l.LogLevel != "" {
		if _, err := logrus.ParseLevel(l.LogLevel); err != nil {
			return Launch{}, fmt.Errorf("executor: %s=%q: want one of error, warn, info, debug, trace", envLogLevel, l.LogLevel)
		}
	}
	var err error
	if l.Cores, err = strconv.Atoi(get(envExecutorCores)); err != nil || l.Cores < 1 {
		return Launch{}, fmt.Errorf("executor: %s=%q: want a positive number", envExecutorCores, get(envExecutorCores))
	}
	if w := get(envExecutorGPUs); w != "" {
		if l.GPUs, err = strconv.Atoi(w); err != nil || l.GPUs < 0 {
			return Launch{}, fmt.Errorf("executor: %s=%q: want a number", envExecutorGPUs, w)
		}
	}
	// The limits: absent, 0 (none); else a number, not negative.
	var files, jobs int64
	for _, b := range []struct {
		name, of string
		to       *int64
	}{{envTaskLogMaxBytes, "bytes", &l.TaskLogMaxBytes}, {envLogMaxBytes, "bytes", &l.LogMaxBytes}, {envTaskLogsMaxBytes, "bytes", &l.TaskLogs.MaxBytes},
		{envLogMaxFiles, "files", &files}, {envTaskLogsMaxJobs, "jobs", &jobs}} {
		if m := get(b.name); m != "" {
			if *b.to, err = strconv.ParseInt(m, 10, 64); err != nil || *b.to < 0 {
				return Launch{}, fmt.Errorf("executor: %s=%q: want a number of %s", b.name, m, b.of)
			}
		}
	}
	l.LogMaxFiles, l.TaskLogs.MaxJobs = int(files), int(jobs)
	for _, d := range []struct {
		name string
		to   *time.Duration
	}{{envRejoinTimeout, &l.RejoinTimeout}, {envGPUSampleInterval, &l.GPUSampleInterval}} {
		if r := get(d.name); r != "" {
			if *d.to, err = time.ParseDuration(r); err != nil || *d.to < 0 {
				return Launch{}, fmt.Errorf("executor: %s=%q: want a duration such as 30s or 2m", d.name, r)
			}
		}
	}
	// DiscoverGPUs reads the lists again, weighed against the container's
	// other sources; a malformed one is the launcher's fault, said here.
	if l.GPUAddresses, err = splitAddressList(EnvExecutorGPUAddresses, get(EnvExecutorGPUAddresses)); err != nil {
		return Launch{}, fmt.Errorf("executor: %w", err)
	}
	if l.AMGPUIndices, err = splitAddressList(EnvAMGPUIndices, get(EnvAMGPUIndices)); err != nil {
		return Launch{}, fmt.Errorf("executor: %w", err)
	}
	if l.Accels, err = acceleratorsFromEnv(get); err != nil {
		return Launch{}, err
	}
	return l, nil
}
