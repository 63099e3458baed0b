package jobspec

import "github.com/spindle-yarn/spindle/scheduler"

// Defaults are what a stage gets for what its spec leaves out, taken from
// configuration. The zero value is usable: 1 CPU, no GPUs, the scheduler's
// own retry limit, pool "default".
type Defaults struct {
	CPUs        int     // spindle.task.cpus; below 1 means 1
	GPUs        float64 // spindle.task.resource.gpu.amount; 0 means none
	MaxAttempts int     // spindle.task.maxFailures; 0 leaves it to the scheduler
	Pool        string  // the pool of a job that names none; empty means "default"
}

// Job is a validated job spec: a DAG of stages, run in a pool.
type Job struct {
	Name   string
	Pool   string  // never empty
	Stages []Stage // in the order the spec lists them
	// Source names where the spec came from in messages: its file, or
	// "command line" for Short.
	Source string
}

// Stage is one stage of a job. It is plain data (no compiled state), so it
// can be copied, compared and shipped as it is; TaskCommand and TaskEnv
// expand its templates for one task.
type Stage struct {
	Name  string
	After []string // stages of the same job that must succeed first
	// Tasks is at least 1; or 0 for a stage with an Input until its
	// listing is cut into splits (SetInputTasks).
	Tasks int
	// Input is what the stage reads, split into its tasks (docs/data.md);
	// zero (no Paths) for none.
	Input Input
	// Command is the argv template of every task: the spec's list as
	// written, or ["/bin/sh", "-c", s] for a string s. Empty when Builtin
	// is set: exactly one of the two is.
	Command []string
	// Builtin names work done inside the executor without a process
	// (BuiltinNoop).
	Builtin  string
	CPUs     int     // per task, at least 1
	MemoryMB int64   // per task; 0 when the spec gives none
	GPUs     float64 // per task: 0 (none), a fraction in (0,1) or a whole number
	// Accels are the whole addresses of each accelerator besides GPUs a
	// task asks for (resources: {fpga: 2}), by name; nil when the stage
	// names none. A name set here replaces the application's amount of it
	// (spindle.task.resource.NAME.amount), 0 asking for none.
	Accels      map[string]int
	MaxAttempts int // 0 leaves it to the scheduler
	// Env holds the variables the spec sets for every task, sorted by
	// name; values are templates like Command's elements.
	Env            []EnvVar
	PreferredHosts []string // locality hint
	// Gang: every task starts together or none does, with rendezvous
	// variables (docs/gangs.md).
	Gang bool
	// NodeLabel is the YARN node label the stage's executors are asked
	// with ("": the application's).
	NodeLabel string
	// Placement is where the stage's executors go beside each other on
	// YARN (zero: the application's): a stage asking one runs on
	// executors of its own (docs/yarn.md, "Per-stage placement").
	Placement scheduler.Placement
	// Line is where the stage starts in its spec (0 from Short), so later
	// errors about it, the scheduler's at submit say, can point there.
	Line int
}

// EnvVar is one environment variable a stage sets.
type EnvVar struct {
	Name, Value string
}

// BuiltinNoop completes a task inside the executor without starting a
// process: it measures the framework's own overhead.
const BuiltinNoop = "noop"

// builtins are the values `builtin:` accepts.
var builtins = []string{BuiltinNoop}

// defaultPool is the pool of a job that names none, anywhere.
const defaultPool = "default"

const (
	// maxSpecBytes bounds a spec's size: a spec describes work, it does
	// not carry data. 1 MiB is some 20,000 stages; parsing it holds about
	// 100 MiB of YAML nodes at worst (a list of one-letter words), which
	// an AM of the default 256m can still afford.
	maxSpecBytes = 1 << 20
	// maxTasks bounds a job's tasks, all stages together: the AM keeps
	// state for every one.
	maxTasks = 10_000_000
)
