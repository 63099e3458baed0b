package executor

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// baseEnvironmentKeys is the allow-list of the executor's own variables a
// task (or discovery script) inherits. The executor's environment holds
// things no task may see: the driver channel's secret, YARN's tokens
// file location, the launcher's GPU variables. So a task starts from
// these and what its job spec sets, never from os.Environ().
var baseEnvironmentKeys = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR"}

// BaseEnvironment returns the allow-listed variables that lookup (nil:
// os.LookupEnv) has, as KEY=VALUE.
func BaseEnvironment(lookup func(string) (string, bool)) []string {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var env []string
	for _, k := range baseEnvironmentKeys {
		if v, ok := lookup(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// TaskIdentity says which attempt of which task a process is.
type TaskIdentity struct {
	AppID      string
	Job        string
	Stage      string
	Index      int // 0-based, below Count
	Count      int // tasks in the stage
	Attempt    int // 0-based
	ExecutorID string
	Host       string
}

// TaskEnvironment returns the variables of DESIGN.md §Task environment for
// a task given gpus (its addresses, possibly none) and resourcesFile (the
// path WriteTaskResourcesFile wrote). CUDA_VISIBLE_DEVICES is set even
// when gpus is empty: set and empty, it hides every GPU from CUDA, which is
// what a task granted none must get.
func TaskEnvironment(t TaskIdentity, gpus []string, resourcesFile string) []string {
	list := strings.Join(gpus, ",")
	return []string{
		"SPINDLE_APP_ID=" + t.AppID,
		"SPINDLE_JOB=" + t.Job,
		"SPINDLE_STAGE=" + t.Stage,
		"SPINDLE_TASK_INDEX=" + strconv.Itoa(t.Index),
		"SPINDLE_TASK_COUNT=" + strconv.Itoa(t.Count),
		"SPINDLE_ATTEMPT=" + strconv.Itoa(t.Attempt),
		"SPINDLE_EXECUTOR_ID=" + t.ExecutorID,
		"SPINDLE_HOST=" + t.Host,
		"CUDA_VISIBLE_DEVICES=" + list,
		"SPINDLE_GPU_ADDRESSES=" + list,
		"SPINDLE_RESOURCES_FILE=" + resourcesFile,
	}
}

// mergeEnvironment lays extra over base: a key set twice keeps its first
// position and its last value, so the result has each key once.
func mergeEnvironment(base, extra []string) ([]string, error) {
	env := make([]string, 0, len(base)+len(extra))
	at := make(map[string]int, cap(env))
	for _, kv := range append(base[:len(base):len(base)], extra...) {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("environment entry %q is not KEY=VALUE", kv)
		}
		if i, seen := at[k]; seen {
			env[i] = kv
			continue
		}
		at[k] = len(env)
		env = append(env, kv)
	}
	return env, nil
}
