package executor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// InheritedEnvironment is what a task inherits of its executor's
// environment environ (KEY=VALUE entries): all of it — on YARN what the
// NodeManager gives a container (CONTAINER_ID, NM_HOST, LOCAL_DIRS,
// LOG_DIRS, JAVA_HOME, HADOOP_*, its whitelist and admin environment) and
// spindle.executorEnv; locally the submitter's environment — but the
// reserved variables. The application secret is in none of it: it reaches
// an executor on stdin or in a credentials file it scrubs (ReadSecret).
func InheritedEnvironment(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !taskenv.Reserved(k) {
			out = append(out, kv)
		}
	}
	return out
}

// lookupIn looks a variable up in environ; the last entry for a key wins,
// as in exec.Cmd.
func lookupIn(environ []string) func(string) (string, bool) {
	return func(key string) (string, bool) {
		for i := len(environ) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
				return v, true
			}
		}
		return "", false
	}
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

// TaskEnvironment returns the variables Spindle sets for a task given gpus
// (its addresses, possibly none), resourcesFile (the path
// WriteTaskResourcesFile wrote) and preemptedFile (where the task is told
// to checkpoint and stop, taskenv.PreemptedFile). CUDA_VISIBLE_DEVICES is
// set even when gpus is empty: set and empty, it hides every GPU from
// CUDA, which is what a task granted none must get.
func TaskEnvironment(t TaskIdentity, gpus []string, resourcesFile, preemptedFile string) []string {
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
		taskenv.Addresses(gpuResource) + "=" + list,
		taskenv.ResourcesFile + "=" + resourcesFile,
		taskenv.PreemptedFile + "=" + preemptedFile,
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

// taskEnv is the environment of the attempt l, named name: the job's
// variables first, then the task's own (CUDA_VISIBLE_DEVICES above all),
// which win.
func (e *executor) taskEnv(l *wire.Launch, name, resources string) []string {
	var env []string
	for _, v := range l.GetEnv() {
		env = append(env, v.GetName()+"="+v.GetValue())
	}
	env = append(env, TaskEnvironment(TaskIdentity{AppID: e.cfg.AppID, Job: l.GetJob(), Stage: l.GetStage(), Index: int(l.GetTaskIndex()),
		Count: int(l.GetTaskCount()), Attempt: int(l.GetAttempt()), ExecutorID: e.cfg.ID, Host: e.cfg.Host}, l.GetGpuAddresses(), resources,
		e.preemptedFile(name))...)
	return append(env, acceleratorVariables(e.accels, l)...)
}
