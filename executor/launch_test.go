package executor

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// What a launcher writes, the executor reads back: locally in one piece,
// on YARN from three parts (the application's launch context, the
// container's, the command line) that must not overlap, since the
// NodeManager appends one to the other.
func TestLaunchRoundTrip(t *testing.T) {
	local := Launch{DriverAddress: "127.0.0.1:4000", AppID: "local-1-abc", ExecutorID: "exec-1", Cores: 2, GPUs: 2,
		GPUAddresses: []string{"1", "3"}, LogDir: "/tmp/app/exec-1", TaskLogMaxBytes: 1 << 20, SecretFrom: "stdin",
		LogFile: "/tmp/app/exec-1/executor.log", LogMaxBytes: 4096, LogMaxFiles: 2, TaskLogs: tasklog.Policy{MaxJobs: 3}, GPUSampleInterval: 1500 * time.Millisecond}
	app := Launch{DriverAddress: "node-1:4000", AppID: "application_1_0001", GPUDiscoveryScript: "getGpus.sh", TaskLogMaxBytes: 2048, SecretFrom: "credentials", LogLevel: "debug",
		LogMaxBytes: 1 << 26, LogMaxFiles: 4, TaskLogs: tasklog.Policy{MaxJobs: 100, MaxBytes: 1 << 30}, RejoinTimeout: 90 * time.Second,
		GPUSampleInterval: 5 * time.Second}
	cpuOnly := Launch{ExecutorID: "container_1_0001_01_000002", Cores: 1}
	gpu := Launch{ExecutorID: "container_1_0001_01_000003", Cores: 4, GPUs: 2, AMGPUIndices: []string{"0", "1"}}
	logDir := Launch{LogDir: "/var/log/yarn/container_1_0001_01_000002", LogFile: "/var/log/yarn/container_1_0001_01_000002/executor.stderr"}

	roundTrip := func(name string, want Launch, parts ...Launch) {
		t.Helper()
		env := map[string]string{}
		for _, p := range parts {
			for k, v := range p.Env() {
				if _, dup := env[k]; dup {
					t.Errorf("%s: %s is in two parts", name, k)
				}
				if !taskenv.Reserved(k) {
					t.Errorf("%s: %s is not Reserved: tasks would inherit it", name, k)
				}
				env[k] = v
			}
		}
		got, err := LaunchFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err != nil {
			t.Fatalf("%s: LaunchFromEnv(%v): %v", name, env, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: LaunchFromEnv(%v) =\n%+v\nwant\n%+v", name, env, got, want)
		}
	}
	roundTrip("local", local, local)
	whole := func(part Launch) Launch {
		w := app
		w.ExecutorID, w.Cores, w.GPUs, w.AMGPUIndices, w.LogDir, w.LogFile = part.ExecutorID, part.Cores, part.GPUs, part.AMGPUIndices, logDir.LogDir, logDir.LogFile
		return w
	}
	roundTrip("YARN, no GPUs", whole(cpuOnly), app, cpuOnly, logDir)
	roundTrip("YARN, GPUs", whole(gpu), app, gpu, logDir)

	// A container with no GPUs says so, rather than leaving the count out.
	if got := cpuOnly.Env()["SPINDLE_EXECUTOR_GPUS"]; got != "0" {
		t.Errorf("a container's part without GPUs has SPINDLE_EXECUTOR_GPUS=%q, want 0", got)
	}
	if got := logDir.Environ(); !slices.Equal(got, []string{"SPINDLE_EXECUTOR_LOG_DIR=/var/log/yarn/container_1_0001_01_000002",
		"SPINDLE_EXECUTOR_LOG_FILE=/var/log/yarn/container_1_0001_01_000002/executor.stderr"}) {
		t.Errorf("the command line's part: %q", got)
	}
	env := local.Environ()
	if !slices.IsSorted(env) || len(env) != len(local.Env()) {
		t.Errorf("Environ %q: want Env's %d variables sorted", env, len(local.Env()))
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if local.Env()[k] != v {
			t.Errorf("Environ has %s, Env %s=%s", kv, k, local.Env()[k])
		}
	}
}

// A launch that is not whole, or holds a value that does not parse, is
// refused, naming the variable and what it holds.
func TestLaunchFromEnvRefuses(t *testing.T) {
	good := Launch{DriverAddress: "127.0.0.1:4000", ExecutorID: "exec-1", Cores: 1, LogDir: "/tmp/l", SecretFrom: "stdin"}.Env()
	for _, c := range []struct {
		name string
		set  map[string]string
		want string
	}{
		{"cores not a number", map[string]string{"SPINDLE_EXECUTOR_CORES": "x"}, `SPINDLE_EXECUTOR_CORES="x": want a positive number`},
		{"no cores", map[string]string{"SPINDLE_EXECUTOR_CORES": "0"}, `SPINDLE_EXECUTOR_CORES="0": want a positive number`},
		{"negative GPUs", map[string]string{"SPINDLE_EXECUTOR_GPUS": "-1"}, `SPINDLE_EXECUTOR_GPUS="-1": want a number`},
		{"log cap with a unit", map[string]string{"SPINDLE_EXECUTOR_TASK_LOG_MAX_BYTES": "1k"}, `SPINDLE_EXECUTOR_TASK_LOG_MAX_BYTES="1k": want a number of bytes`},
		{"negative log roll", map[string]string{"SPINDLE_EXECUTOR_LOG_MAX_BYTES": "-1"}, `SPINDLE_EXECUTOR_LOG_MAX_BYTES="-1": want a number of bytes`},
		{"log files not a number", map[string]string{"SPINDLE_EXECUTOR_LOG_MAX_FILES": "x"}, `SPINDLE_EXECUTOR_LOG_MAX_FILES="x": want a number of files`},
		{"negative log files", map[string]string{"SPINDLE_EXECUTOR_LOG_MAX_FILES": "-2"}, `SPINDLE_EXECUTOR_LOG_MAX_FILES="-2": want a number of files`},
		{"task logs' jobs not a number", map[string]string{"SPINDLE_EXECUTOR_TASK_LOGS_MAX_JOBS": "1.5"}, `SPINDLE_EXECUTOR_TASK_LOGS_MAX_JOBS="1.5": want a number of jobs`},
		{"negative task logs' jobs", map[string]string{"SPINDLE_EXECUTOR_TASK_LOGS_MAX_JOBS": "-1"}, `SPINDLE_EXECUTOR_TASK_LOGS_MAX_JOBS="-1": want a number of jobs`},
		{"task logs' bytes with a unit", map[string]string{"SPINDLE_EXECUTOR_TASK_LOGS_MAX_BYTES": "1g"}, `SPINDLE_EXECUTOR_TASK_LOGS_MAX_BYTES="1g": want a number of bytes`},
		{"rejoin timeout without a unit", map[string]string{"SPINDLE_EXECUTOR_REJOIN_TIMEOUT": "30"}, `SPINDLE_EXECUTOR_REJOIN_TIMEOUT="30": want a duration such as 30s or 2m`},
		{"negative rejoin timeout", map[string]string{"SPINDLE_EXECUTOR_REJOIN_TIMEOUT": "-1s"}, `SPINDLE_EXECUTOR_REJOIN_TIMEOUT="-1s": want a duration`},
		{"GPU sample interval without a unit", map[string]string{"SPINDLE_EXECUTOR_GPU_SAMPLE_INTERVAL": "5"}, `SPINDLE_EXECUTOR_GPU_SAMPLE_INTERVAL="5": want a duration such as 30s or 2m`},
		{"negative GPU sample interval", map[string]string{"SPINDLE_EXECUTOR_GPU_SAMPLE_INTERVAL": "-5s"}, `SPINDLE_EXECUTOR_GPU_SAMPLE_INTERVAL="-5s": want a duration`},
		{"unknown log level", map[string]string{"SPINDLE_LOG_LEVEL": "loud"}, `SPINDLE_LOG_LEVEL="loud": want one of error, warn, info, debug, trace`},
		{"secret in argv", map[string]string{"SPINDLE_SECRET_FROM": "argv"}, `SPINDLE_SECRET_FROM="argv": want stdin or credentials`},
		{"GPU listed twice", map[string]string{"SPINDLE_EXECUTOR_GPU_ADDRESSES": "0,0"}, `SPINDLE_EXECUTOR_GPU_ADDRESSES: address "0" is listed twice`},
		{"AM index empty", map[string]string{"SPINDLE_EXECUTOR_AM_GPU_INDICES": "0,,1"}, "SPINDLE_EXECUTOR_AM_GPU_INDICES: address 1 is empty"},
		{"by hand", map[string]string{"SPINDLE_EXECUTOR_ID": "", "SPINDLE_DRIVER_ADDRESS": "", "SPINDLE_EXECUTOR_LOG_DIR": "", "SPINDLE_SECRET_FROM": ""},
			"SPINDLE_EXECUTOR_ID, SPINDLE_DRIVER_ADDRESS, SPINDLE_EXECUTOR_LOG_DIR, SPINDLE_SECRET_FROM not set"},
	} {
		env := maps.Clone(good)
		maps.Copy(env, c.set)
		_, err := LaunchFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: LaunchFromEnv = %v, want an error containing %q", c.name, err, c.want)
		}
	}
	if _, err := LaunchFromEnv(func(k string) (string, bool) { v, ok := good[k]; return v, ok }); err != nil {
		t.Errorf("the launch the cases alter is refused: %v", err)
	}
}
