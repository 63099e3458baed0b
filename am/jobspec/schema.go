package jobspec

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/internal/units"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The keys each mapping of a spec may have; any other is an error.
var (
	jobKeys      = []string{"name", "pool", "stages"}
	stageKeys    = []string{"name", "after", "tasks", "command", "builtin", "resources", "maxAttempts", "env", "preferredHosts", "gang", "nodeLabel", "placement", "input"}
	resourceKeys = []string{"cpus", "memory", "gpus"}
)

// Keys written one level off, and where they belong: the likeliest
// mistakes, said plainly rather than as a did-you-mean.
var (
	misplacedInJob = map[string]string{
		"tasks": "in a stage", "command": "in a stage", "builtin": "in a stage", "after": "in a stage",
		"resources": "in a stage", "maxAttempts": "in a stage", "env": "in a stage", "preferredHosts": "in a stage", "gang": "in a stage",
	}
	misplacedInStage = map[string]string{
		"cpus": "under resources", "memory": "under resources", "gpus": "under resources",
		"pool": "at the top, beside the job's name", "stages": "at the top, beside the job's name",
	}
)

// job reads a document's root into a Job.
func (d *decoder) job(root *yaml.Node, def Defaults) *Job {
	j := &Job{Source: d.source, Pool: def.Pool}
	root, ok := d.value(root, "")
	if !ok {
		return j
	}
	f := d.fields(root, "", jobKeys, misplacedInJob)
	if f == nil {
		return j
	}
	if e, ok := f["name"]; ok {
		j.Name, _ = d.name(e.value, "name")
	} else {
		d.errorf(root.Line, "name", "missing")
	}
	if e, ok := f["pool"]; ok {
		if pool, ok := d.name(e.value, "pool"); ok {
			j.Pool = pool
		}
	}
	e, ok := f["stages"]
	if !ok {
		d.errorf(root.Line, "stages", "missing")
		return j
	}
	j.Stages = d.stages(e, j.Name, def)
	return j
}

// stages reads the list of stages, then checks what spans them: names
// unique, after naming stages that exist without a cycle, tasks in all.
func (d *decoder) stages(e entry, job string, def Defaults) []Stage {
	n := e.value
	if n.Kind != yaml.SequenceNode {
		d.errorf(n.Line, e.key, "%s: not a list", describe(n))
		return nil
	}
	if len(n.Content) == 0 {
		d.errorf(n.Line, e.key, "an empty list: a job needs at least one stage")
		return nil
	}
	stages := make([]Stage, 0, len(n.Content))
	afterLines := make([][]int, 0, len(n.Content))
	tasks := 0
	for i, s := range n.Content {
		stage, lines := Stage{}, []int(nil) // a stage that is no value still holds its index
		if s, ok := d.value(s, index(e.key, i)); ok {
			stage, lines = d.stage(s, index(e.key, i), job, def)
		}
		stages = append(stages, stage)
		afterLines = append(afterLines, lines)
		tasks += stage.Tasks // each at most maxTasks: no overflow
	}
	if tasks > maxTasks {
		d.errorf(e.line, e.key, "%d tasks in all: more than the %d a job may have", tasks, maxTasks)
	}
	d.checkGraph(stages, afterLines)
	return stages
}

// stage reads one stage, and the line of each name in its after list.
func (d *decoder) stage(n *yaml.Node, path, job string, def Defaults) (Stage, []int) {
	s := Stage{Line: n.Line, CPUs: def.CPUs, GPUs: def.GPUs, MaxAttempts: def.MaxAttempts}
	f := d.fields(n, path, stageKeys, misplacedInStage)
	if f == nil {
		return s, nil
	}
	if e, ok := f["name"]; ok {
		s.Name, _ = d.name(e.value, join(path, "name"))
	} else {
		d.errorf(n.Line, join(path, "name"), "missing")
	}
	d.tasksOrInput(n, f, path, &s)
	var afterLines []int
	if e, ok := f["after"]; ok {
		s.After, afterLines = d.names(e.value, join(path, "after"))
	}

	// Templates are tried on the stage's first task, to catch at load
	// what would fail it.
	sample := Task{Job: job, Stage: s.Name, Index: 0, Count: s.Tasks, Attempt: 0}
	command, hasCommand := f["command"]
	builtin, hasBuiltin := f["builtin"]
	switch {
	case hasCommand && hasBuiltin:
		d.errorf(builtin.line, join(path, "builtin"), "give command or builtin, not both")
	case hasCommand:
		s.Command = d.command(command.value, join(path, "command"), sample)
	case hasBuiltin:
		s.Builtin = d.builtin(builtin.value, join(path, "builtin"))
	default:
		d.errorf(n.Line, path, "neither command nor builtin: give one")
	}

	if e, ok := f["resources"]; ok {
		d.resources(e.value, join(path, "resources"), &s)
	}
	if e, ok := f["maxAttempts"]; ok {
		s.MaxAttempts, _ = d.int(e.value, join(path, "maxAttempts"), 1)
		if s.MaxAttempts > scheduler.MaxAttemptsLimit {
			d.errorf(e.value.Line, join(path, "maxAttempts"), "%d: more than the %d attempts a task may have", s.MaxAttempts, scheduler.MaxAttemptsLimit)
			s.MaxAttempts = 0
		}
	}
	if e, ok := f["env"]; ok {
		s.Env = d.env(e.value, join(path, "env"), sample)
	}
	if e, ok := f["preferredHosts"]; ok {
		s.PreferredHosts, _ = d.names(e.value, join(path, "preferredHosts"))
		if len(s.Input.Paths) > 0 {
			// Its splits' blocks say where each task would best run.
			d.errorf(e.value.Line, join(path, "preferredHosts"), "a stage with an input takes its hosts from its splits")
		}
	}
	if e, ok := f["gang"]; ok {
		s.Gang = d.boolean(e.value, join(path, "gang"))
		if s.Gang && len(s.PreferredHosts) > 0 {
			// A gang launches where all its tasks fit at once: it never
			// waits for a host it prefers.
			d.errorf(e.value.Line, join(path, "preferredHosts"), "a gang stage takes no locality hint")
		}
	}
	if e, ok := f["nodeLabel"]; ok {
		s.NodeLabel = d.nodeLabel(e.value, join(path, "nodeLabel"))
	}
	if e, ok := f["placement"]; ok {
		s.Placement = d.placement(e.value, join(path, "placement"))
	}
	return s, afterLines
}

// tasksOrInput reads a stage's tasks, or its input, whose listing makes
// its tasks (Tasks stays 0 until then: Job.SetInputTasks); one of the
// two, not both.
func (d *decoder) tasksOrInput(n *yaml.Node, f map[string]entry, path string, s *Stage) {
	tasks, hasTasks := f["tasks"]
	input, hasInput := f["input"]
	switch {
	case hasTasks && hasInput:
		d.errorf(tasks.line, join(path, "tasks"), "give tasks or input, not both: a stage with an input has a task for each of its splits")
	case hasInput:
		s.Input = d.input(input.value, join(path, "input"))
	case hasTasks:
		s.Tasks, _ = d.int(tasks.value, join(path, "tasks"), 1)
		if s.Tasks > maxTasks {
			d.errorf(tasks.value.Line, join(path, "tasks"), "%d: more than the %d tasks a job may have", s.Tasks, maxTasks)
			s.Tasks = 0
		}
	default:
		d.errorf(n.Line, join(path, "tasks"), "missing") // or an input, whose splits make them
	}
}

// command reads a stage's command: a list is the argv, a string runs
// under /bin/sh -c.
func (d *decoder) command(n *yaml.Node, path string, sample Task) []string {
	switch {
	case n.Kind == yaml.SequenceNode && len(n.Content) == 0:
		d.errorf(n.Line, path, "an empty list: give the program and its arguments")
	case n.Kind == yaml.SequenceNode:
		argv := make([]string, 0, len(n.Content))
		for i, e := range n.Content {
			p := index(path, i)
			e, ok := d.value(e, p)
			if !ok {
				continue
			}
			arg, ok := d.text(e, p)
			if !ok {
				continue
			}
			if i == 0 && arg == "" {
				d.errorf(e.Line, p, "an empty program name")
				continue
			}
			d.checkTemplate(e.Line, p, arg, sample, 0)
			argv = append(argv, arg)
		}
		return argv
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && n.Value == "":
		d.errorf(n.Line, path, "an empty string: give a command")
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		d.checkTemplate(n.Line, path, n.Value, sample, 0)
		return []string{"/bin/sh", "-c", n.Value}
	default:
		d.errorf(n.Line, path, "%s: not a list or a string", describe(n))
	}
	return nil
}

// maxArgBytes is the longest string Linux's exec takes as one argument,
// or one environment variable (NAME=value): MAX_ARG_STRLEN, 32 pages of
// 4 KiB, counts the string's terminating NUL. A longer one would fail
// every attempt with "argument list too long"; it is refused at submit.
const maxArgBytes = 32*4096 - 1

// checkTemplate tries text, a command element or an env value (after a
// prefix of its "NAME=" bytes), on the stage's first task: text that does
// not parse, names a field a task does not have or fails to expand is an
// error now rather than at every task; and on its last task's widest
// attempt number (an AM attempt numbers its task attempts in a range of
// its own: am/core's ids.go), for exec's bound on a string.
func (d *decoder) checkTemplate(line int, path, text string, sample Task, prefix int) {
	if d.checked[text] >= prefix+1 {
		return
	}
	if _, err := expand(text, sample); err != nil {
		d.errorf(line, path, "%q: %v", clip(text), err)
		return
	}
	longest := sample
	longest.Index, longest.Attempt = max(sample.Count-1, 0), math.MaxInt32
	if out, err := expand(text, longest); err == nil && prefix+len(out) > maxArgBytes {
		what := "argument"
		if prefix > 0 {
			what = "environment variable, with its name,"
		}
		d.errorf(line, path, "%d bytes: longer than the %d bytes Linux takes as one %s (MAX_ARG_STRLEN); pass large data in a file",
			prefix+len(out), maxArgBytes, what)
		return
	}
	d.checked[text] = max(d.checked[text], prefix+1)
}

func (d *decoder) builtin(n *yaml.Node, path string) string {
	b, ok := d.text(n, path)
	if !ok {
		return ""
	}
	if !slices.Contains(builtins, b) {
		hint := " (known: " + strings.Join(builtins, ", ") + ")"
		if near := nearest(b, builtins); near != "" {
			hint = "; did you mean " + near + "?"
		}
		d.errorf(n.Line, path, "%s: unknown builtin%s", describe(n), hint)
		return ""
	}
	return b
}

// resources reads what each task of s asks for over the defaults: cpus,
// memory and gpus, and any other key an accelerator's whole addresses
// (accelerators.go).
func (d *decoder) resources(n *yaml.Node, path string, s *Stage) {
	entries, ok := d.mapping(n, path)
	if !ok {
		return
	}
	var accels []entry
	for _, e := range entries {
		p := join(path, e.key)
		v, ok := d.value(e.value, p)
		if !ok || isNull(v) {
			continue
		}
		switch e.key {
		case "cpus":
			if cpus, ok := d.int(v, p, 1); ok {
				s.CPUs = cpus
			}
		case "memory":
			s.MemoryMB = d.memory(v, p)
		case "gpus":
			if gpus, ok := d.number(v, p); ok {
				if err := checkGPUs(p, gpus); err != nil {
					d.errorf(v.Line, "", "%v", err) // the scheduler's message names the field
				} else {
					s.GPUs = gpus
				}
			}
		default:
			e.value = v
			accels = append(accels, e)
		}
	}
	s.Accels = d.accelerators(accels, path)
}

// checkGPUs accepts what the scheduler does (a whole number, or a
// fraction of one GPU) and 0, which asks for none.
func checkGPUs(field string, gpus float64) error {
	if gpus == 0 {
		return nil
	}
	_, err := scheduler.ParseGPURequest(field, gpus)
	return err
}

// memory reads a size: 2g, 512m, or a number of MiB.
func (d *decoder) memory(n *yaml.Node, path string) int64 {
	text, ok := d.text(n, path)
	if !ok {
		return 0
	}
	mib, err := units.ParseSizeMiB(text)
	if err == nil && mib == 0 {
		err = fmt.Errorf("must be above 0")
	}
	if err != nil {
		d.errorf(n.Line, path, "%s: %v", describe(n), err)
		return 0
	}
	return mib
}

// env reads a stage's environment: names to values, which are templates.
func (d *decoder) env(n *yaml.Node, path string, sample Task) []EnvVar {
	entries, ok := d.mapping(n, path)
	if !ok {
		return nil
	}
	var vars []EnvVar
	for _, e := range entries {
		if err := checkEnvName(e.key); err != nil {
			d.errorf(e.line, path, "%q: %v", clip(e.key), err)
			continue
		}
		p := join(path, e.key)
		v, ok := d.value(e.value, p)
		if !ok {
			continue
		}
		value, ok := d.text(v, p)
		if !ok {
			continue
		}
		d.checkTemplate(v.Line, p, value, sample, len(e.key)+1)
		vars = append(vars, EnvVar{Name: e.key, Value: value})
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
	return vars
}

// checkEnvName accepts the portable variable names (POSIX: letters,
// digits, underscore, not starting with a digit) that Spindle does not set
// itself: a task's own SPINDLE_* and GPU visibility variables must be
// right (taskenv.Reserved).
func checkEnvName(name string) error {
	for i, c := range []byte(name) {
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return fmt.Errorf("not a variable name: use letters, digits and _, not starting with a digit")
		}
	}
	switch {
	case name == "":
		return fmt.Errorf("an empty variable name")
	case taskenv.Reserved(name):
		return fmt.Errorf("reserved: Spindle sets it for each task")
	}
	return nil
}
