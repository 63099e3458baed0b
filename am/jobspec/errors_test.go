package jobspec

import (
	"strings"
	"testing"
)

// ok is a stage with nothing wrong, to build failing specs around.
const ok = "{name: ok, tasks: 1, builtin: noop}"

// spec is a job named j with these stages, one a line from line 3.
func spec(stages ...string) string {
	return "name: j\nstages:\n- " + strings.Join(stages, "\n- ") + "\n"
}

// TestErrors pins the message of every kind of mistake: source, line,
// field, the value, what is wrong.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ name, spec, want string }{
		// The document.
		{"empty", "", "job.yaml: empty: a job spec needs a name and stages"},
		{"comments only", "# nothing\n", "job.yaml: empty: a job spec needs a name and stages"},
		{"null", "---\n~\n", "job.yaml:2: empty: a job spec needs a name and stages"},
		{"two documents", "name: a\n---\nname: b\n", "job.yaml:2: a second YAML document: a job spec is one document"},
		{"syntax", "name: x\nstages: [a\n", "job.yaml:2: not valid YAML: did not find expected ',' or ']'"},
		{"syntax in a second document", "name: x\n---\n[\n", "job.yaml:3: not valid YAML: did not find expected node content"},
		{"not a mapping", "- a\n", "job.yaml:1: a list: not a mapping"},
		{"unknown anchor", "name: *x\n", "job.yaml: not valid YAML: unknown anchor 'x' referenced"},

		// Keys.
		{"unknown key", "name: j\nstage: []\n", "job.yaml:1: stages: missing\njob.yaml:2: unknown key \"stage\"; did you mean stages?"},
		{"unknown key, none near", "name: j\nbase: 1\nstages: [" + ok + "]\n", "job.yaml:2: unknown key \"base\" (known: name, pool, stages)"},
		{"key of another case", "name: j\nStages: [" + ok + "]\n", "job.yaml:1: stages: missing\njob.yaml:2: unknown key \"Stages\"; did you mean stages?"},
		{"stage key at the top", "name: j\ntasks: 3\nstages: [" + ok + "]\n", "job.yaml:2: unknown key \"tasks\"; it belongs in a stage"},
		{"resource key in a stage", spec("{name: a, tasks: 1, builtin: noop, gpus: 1}"), "job.yaml:3: stages[0]: unknown key \"gpus\"; it belongs under resources"},
		{"unknown stage key", spec(ok, "{name: a, tasks: 1, builtin: noop, maxAttempt: 2}"), "job.yaml:4: stages[1]: unknown key \"maxAttempt\"; did you mean maxAttempts?"},
		{"unknown resource key", spec("{name: a, tasks: 1, builtin: noop, resources: {gpu: 1}}"), "job.yaml:3: stages[0].resources: unknown key \"gpu\"; did you mean gpus?"},
		{"duplicate key", "name: j\nstages: [" + ok + "]\nname: k\n", "job.yaml:3: name: duplicate key (first on line 1)"},
		{"duplicate odd key", "name: j\nstages: [" + ok + "]\n\"a\\nb\": 1\n\"a\\nb\": 2\n", "job.yaml:3: unknown key \"a\\nb\" (known: name, pool, stages)\njob.yaml:4: \"a\\nb\": duplicate key (first on line 3)"},
		{"duplicate JSON key", `{"name": "j", "stages": [{"name": "a", "tasks": 1, "tasks": 2, "builtin": "noop"}]}`, "job.yaml:1: stages[0].tasks: duplicate key (first on line 1)"},
		{"merge key", spec("{<<: {tasks: 1}, name: a, builtin: noop}"), "job.yaml:3: stages[0].<<: merge keys are not supported: write the keys out\njob.yaml:3: stages[0].tasks: missing"},
		{"tag", spec("{name: a, tasks: !!int 1, builtin: noop}"), "job.yaml:3: stages[0].tasks: \"!!int\": explicit tags are not supported\njob.yaml:3: stages[0].tasks: missing"},
		{"complex key", spec("{[a]: 1, name: a, tasks: 1, builtin: noop}"), "job.yaml:3: stages[0]: a list as a key: keys are names"},

		// Names.
		{"no name", "stages: [" + ok + "]\n", "job.yaml:1: name: missing"},
		{"empty name", "name: ''\nstages: [" + ok + "]\n", "job.yaml:1: name: \"\": empty"},
		{"control character", "name: \"a\\tb\"\nstages: [" + ok + "]\n", "job.yaml:1: name: \"a\\tb\": contains a control character"},
		{"long name", "name: " + strings.Repeat("n", 257) + "\nstages: [" + ok + "]\n", "job.yaml:1: name: \"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...\": longer than 256 bytes"},
		{"name not a string", "name: [j]\nstages: [" + ok + "]\n", "job.yaml:1: name: a list: not a string"},
		{"empty pool", "name: j\npool: ''\nstages: [" + ok + "]\n", "job.yaml:2: pool: \"\": empty"},
		{"no stage name", spec("{tasks: 1, builtin: noop}"), "job.yaml:3: stages[0].name: missing"},
		{"duplicate stage name", spec(ok, ok), "job.yaml:4: stages[1].name: \"ok\": stages[0] has this name too"},

		// Stages.
		{"no stages", "name: j\n", "job.yaml:1: stages: missing"},
		{"no stage", "name: j\nstages: []\n", "job.yaml:2: stages: an empty list: a job needs at least one stage"},
		{"stages not a list", "name: j\nstages: {a: 1}\n", "job.yaml:2: stages: a mapping: not a list"},
		{"stage not a mapping", spec("a"), "job.yaml:3: stages[0]: \"a\": not a mapping"},
		{"indexes kept past a bad stage", spec("!!map {name: t}", "{name: a, tasks: 1, builtin: noop, after: [zz]}"),
			"job.yaml:3: stages[0]: \"!!map\": explicit tags are not supported\njob.yaml:4: stages[1].after[0]: \"zz\": no stage of this job has this name"},

		// Tasks.
		{"no tasks", spec("{name: a, builtin: noop}"), "job.yaml:3: stages[0].tasks: missing"},
		{"tasks: x", spec("{name: a, tasks: x, builtin: noop}"), "job.yaml:3: stages[0].tasks: \"x\": not a whole number"},
		{"tasks: a string", `{"name": "j", "stages": [{"name": "a", "tasks": "3", "builtin": "noop"}]}`, "job.yaml:1: stages[0].tasks: \"3\": not a whole number"},
		{"tasks: 1.5", spec("{name: a, tasks: 1.5, builtin: noop}"), "job.yaml:3: stages[0].tasks: 1.5: not a whole number"},
		{"tasks: hex", spec("{name: a, tasks: 0x10, builtin: noop}"), "job.yaml:3: stages[0].tasks: 0x10: not a whole number in decimal"},
		{"tasks: 0", spec("{name: a, tasks: 0, builtin: noop}"), "job.yaml:3: stages[0].tasks: 0: must be at least 1"},
		{"tasks: too many", spec("{name: a, tasks: 10000001, builtin: noop}"), "job.yaml:3: stages[0].tasks: 10000001: more than the 10000000 tasks a job may have"},
		{"tasks: beyond int", spec("{name: a, tasks: 9223372036854775808, builtin: noop}"), "job.yaml:3: stages[0].tasks: 9223372036854775808: too large"},
		{"tasks: too many in all", spec("{name: a, tasks: 6000000, builtin: noop}", "{name: b, tasks: 6000000, builtin: noop}"),
			"job.yaml:2: stages: 12000000 tasks in all: more than the 10000000 a job may have"},

		// Command and builtin.
		{"command: 5", spec("{name: a, tasks: 1, command: 5}"), "job.yaml:3: stages[0].command: 5: not a list or a string"},
		{"command: a mapping", spec("{name: a, tasks: 1, command: {a: b}}"), "job.yaml:3: stages[0].command: a mapping: not a list or a string"},
		{"command: []", spec("{name: a, tasks: 1, command: []}"), "job.yaml:3: stages[0].command: an empty list: give the program and its arguments"},
		{"command: ''", spec("{name: a, tasks: 1, command: ''}"), "job.yaml:3: stages[0].command: an empty string: give a command"},
		{"empty program", spec("{name: a, tasks: 1, command: ['', x]}"), "job.yaml:3: stages[0].command[0]: an empty program name"},
		{"argument a list", spec("{name: a, tasks: 1, command: [a, [b]]}"), "job.yaml:3: stages[0].command[1]: a list: not a string"},
		{"argument null", spec("{name: a, tasks: 1, command: [a, ~]}"), "job.yaml:3: stages[0].command[1]: null: not a string"},
		{"argument with NUL", spec(`{name: a, tasks: 1, command: ["a\0b"]}`), "job.yaml:3: stages[0].command[0]: \"a\\x00b\": contains a NUL byte, which no argument or variable can hold"},
		{"both", spec("{name: a, tasks: 1, command: [a], builtin: noop}"), "job.yaml:3: stages[0].builtin: give command or builtin, not both"},
		{"neither", spec("{name: a, tasks: 1}"), "job.yaml:3: stages[0]: neither command nor builtin: give one"},
		{"builtin misspelt", spec("{name: a, tasks: 1, builtin: nop}"), "job.yaml:3: stages[0].builtin: \"nop\": unknown builtin; did you mean noop?"},
		{"builtin unknown", spec("{name: a, tasks: 1, builtin: sleep}"), "job.yaml:3: stages[0].builtin: \"sleep\": unknown builtin (known: noop)"},

		// Resources.
		{"resources not a mapping", spec("{name: a, tasks: 1, builtin: noop, resources: [cpus]}"), "job.yaml:3: stages[0].resources: a list: not a mapping"},
		{"cpus: 0", spec("{name: a, tasks: 1, builtin: noop, resources: {cpus: 0}}"), "job.yaml:3: stages[0].resources.cpus: 0: must be at least 1"},
		{"cpus: 0.5", spec("{name: a, tasks: 1, builtin: noop, resources: {cpus: 0.5}}"), "job.yaml:3: stages[0].resources.cpus: 0.5: not a whole number"},
		{"memory unit", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: 2x}}"), "job.yaml:3: stages[0].resources.memory: \"2x\": unknown size unit \"x\": use b, k, m, g, t, p (or kb, mb, gb, tb, pb)"},
		{"memory fraction", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: 1.5g}}"), "job.yaml:3: stages[0].resources.memory: \"1.5g\": fractional sizes are not supported: use a smaller unit, e.g. 1536m for 1.5g"},
		{"memory: 0", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: 0}}"), "job.yaml:3: stages[0].resources.memory: 0: must be above 0"},
		{"memory negative", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: -1g}}"), "job.yaml:3: stages[0].resources.memory: \"-1g\": negative sizes are not allowed"},
		{"memory in bytes", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: 100b}}"), "job.yaml:3: stages[0].resources.memory: \"100b\": not a whole number of MiB"},
		{"memory no number", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: g}}"), "job.yaml:3: stages[0].resources.memory: \"g\": not a size: want a whole number and a unit (k, m, g, t), e.g. 4g"},
		{"memory too large", spec("{name: a, tasks: 1, builtin: noop, resources: {memory: 9999999999p}}"), "job.yaml:3: stages[0].resources.memory: \"9999999999p\": size too large"},
		{"gpus: lots", "name: j\nstages:\n- name: a\n  tasks: 1\n  builtin: noop\n  resources:\n    gpus: lots\n", "job.yaml:7: stages[0].resources.gpus: \"lots\": not a number"},
		{"gpus: 1.5", spec("{name: a, tasks: 1, builtin: noop, resources: {gpus: 1.5}}"), "job.yaml:3: stages[0].resources.gpus: 1.5: above 1 a GPU amount must be whole (tasks share a GPU only below 1)"},
		{"gpus: -1", spec("{name: a, tasks: 1, builtin: noop, resources: {gpus: -1}}"), "job.yaml:3: stages[0].resources.gpus: -1: a GPU amount must be above 0"},
		{"gpus: tiny", spec("{name: a, tasks: 1, builtin: noop, resources: {gpus: 1e-20}}"), "job.yaml:3: stages[0].resources.gpus: 1e-20 is too small a share of a GPU"},
		{"gpus: huge", spec("{name: a, tasks: 1, builtin: noop, resources: {gpus: 100000}}"), "job.yaml:3: stages[0].resources.gpus: 100000 GPUs is more than any machine has"},
		{"gpus: .inf", spec("{name: a, tasks: 1, builtin: noop, resources: {gpus: .inf}}"), "job.yaml:3: stages[0].resources.gpus: .inf: not a number"},
		{"maxAttempts: 0", spec("{name: a, tasks: 1, builtin: noop, maxAttempts: 0}"), "job.yaml:3: stages[0].maxAttempts: 0: must be at least 1"},
		{"gang not a boolean", spec("{name: a, tasks: 1, builtin: noop, gang: yes}"), "job.yaml:3: stages[0].gang: \"yes\": want true or false"},
		{"gang with preferredHosts", spec("{name: a, tasks: 1, builtin: noop, preferredHosts: [h1], gang: true}"), "job.yaml:3: stages[0].preferredHosts: a gang stage takes no locality hint"},
		{"maxAttempts: 101", spec("{name: a, tasks: 1, builtin: noop, maxAttempts: 101}"), "job.yaml:3: stages[0].maxAttempts: 101: more than the 100 attempts a task may have"},
		{"maxAttempts: 1e12", "name: j\nstages:\n- name: a\n  tasks: 1\n  builtin: noop\n  maxAttempts: 1000000000000\n", "job.yaml:6: stages[0].maxAttempts: 1000000000000: more than the 100 attempts a task may have"},

		// Env.
		{"env not a mapping", spec("{name: a, tasks: 1, builtin: noop, env: [A]}"), "job.yaml:3: stages[0].env: a list: not a mapping"},
		{"env name", spec("{name: a, tasks: 1, builtin: noop, env: {A-B: 1}}"), "job.yaml:3: stages[0].env: \"A-B\": not a variable name: use letters, digits and _, not starting with a digit"},
		{"env name digit", spec("{name: a, tasks: 1, builtin: noop, env: {1A: 1}}"), "job.yaml:3: stages[0].env: \"1A\": not a variable name: use letters, digits and _, not starting with a digit"},
		{"env name empty", spec("{name: a, tasks: 1, builtin: noop, env: {'': 1}}"), "job.yaml:3: stages[0].env: \"\": an empty variable name"},
		{"env reserved", spec("{name: a, tasks: 1, builtin: noop, env: {SPINDLE_TASK_INDEX: 1}}"), "job.yaml:3: stages[0].env: \"SPINDLE_TASK_INDEX\": reserved: Spindle sets it for each task"},
		{"env RANK", spec("{name: a, tasks: 1, builtin: noop, env: {MASTER_PORT: 1}}"), "job.yaml:3: stages[0].env: \"MASTER_PORT\": reserved: Spindle sets it for each task"},
		{"env CUDA", spec("{name: a, tasks: 1, builtin: noop, env: {CUDA_VISIBLE_DEVICES: 0}}"), "job.yaml:3: stages[0].env: \"CUDA_VISIBLE_DEVICES\": reserved: Spindle sets it for each task"},
		{"env NVIDIA", spec("{name: a, tasks: 1, builtin: noop, env: {NVIDIA_VISIBLE_DEVICES: 0}}"), "job.yaml:3: stages[0].env: \"NVIDIA_VISIBLE_DEVICES\": reserved: Spindle sets it for each task"},
		{"env HIP", spec("{name: a, tasks: 1, builtin: noop, env: {HIP_VISIBLE_DEVICES: 0}}"), "job.yaml:3: stages[0].env: \"HIP_VISIBLE_DEVICES\": reserved: Spindle sets it for each task"},
		{"env ROCR", spec("{name: a, tasks: 1, builtin: noop, env: {ROCR_VISIBLE_DEVICES: 0}}"), "job.yaml:3: stages[0].env: \"ROCR_VISIBLE_DEVICES\": reserved: Spindle sets it for each task"},
		{"env value a list", spec("{name: a, tasks: 1, builtin: noop, env: {A: [1]}}"), "job.yaml:3: stages[0].env.A: a list: not a string"},
		{"env value null", spec("{name: a, tasks: 1, builtin: noop, env: {A: }}"), "job.yaml:3: stages[0].env.A: null: not a string"},
		{"env duplicate", "name: j\nstages:\n- name: a\n  tasks: 1\n  builtin: noop\n  env:\n    A: 1\n    A: 2\n", "job.yaml:8: stages[0].env.A: duplicate key (first on line 7)"},

		// After and preferredHosts.
		{"after a string", spec(ok, "{name: a, tasks: 1, builtin: noop, after: ok}"), "job.yaml:4: stages[1].after: \"ok\": not a list (write [ok])"},
		{"after unknown", spec(ok, "{name: a, tasks: 1, builtin: noop, after: [b]}"), "job.yaml:4: stages[1].after[0]: \"b\": no stage of this job has this name"},
		{"after misspelt", spec("{name: extract, tasks: 1, builtin: noop}", "{name: load, tasks: 1, builtin: noop, after: [extrct]}"),
			"job.yaml:4: stages[1].after[0]: \"extrct\": no stage of this job has this name; did you mean \"extract\"?"},
		{"after itself", spec("{name: a, tasks: 1, builtin: noop, after: [a]}"), "job.yaml:3: stages[0].after[0]: \"a\": a stage cannot wait for itself"},
		{"after twice", spec(ok, "{name: a, tasks: 1, builtin: noop, after: [ok, ok]}"), "job.yaml:4: stages[1].after[1]: \"ok\": listed twice"},
		{"after empty name", spec(ok, "{name: a, tasks: 1, builtin: noop, after: ['']}"), "job.yaml:4: stages[1].after[0]: \"\": empty"},
		{"cycle", spec(
			"{name: extract, tasks: 1, builtin: noop, after: [load]}",
			"{name: transform, tasks: 1, builtin: noop, after: [extract]}",
			"{name: load, tasks: 1, builtin: noop, after: [transform]}"),
			`job.yaml:4: stages[1].after[0]: a cycle: "extract" → "load" → "transform" → "extract" (each waits for the next)`},
		{"preferredHosts", spec("{name: a, tasks: 1, builtin: noop, preferredHosts: [h, 5, '']}"), "job.yaml:3: stages[0].preferredHosts[2]: \"\": empty"},

		// Templates.
		{"template syntax", spec("{name: a, tasks: 1, command: [run, '{{.Index']}"), "job.yaml:3: stages[0].command[1]: \"{{.Index\": template: unclosed action"},
		{"template field", spec("{name: a, tasks: 1, command: [run, '{{.Indx}}']}"), "job.yaml:3: stages[0].command[1]: \"{{.Indx}}\": unknown field .Indx; did you mean .Index?"},
		{"template field case", spec("{name: a, tasks: 1, command: 'run {{.index}}'}"), "job.yaml:3: stages[0].command: \"run {{.index}}\": unknown field .index; did you mean .Index?"},
		{"template field unknown", spec("{name: a, tasks: 1, command: [run, '{{.Foo}}']}"), "job.yaml:3: stages[0].command[1]: \"{{.Foo}}\": unknown field .Foo (a task has .Index, .Count, .Attempt, .Stage, .Job)"},
		{"template field in a branch", spec("{name: a, tasks: 1, command: [run, '{{if eq .Index 0}}{{else}}{{$.Cont}}{{end}}']}"),
			"job.yaml:3: stages[0].command[1]: \"{{if eq .Index 0}}{{else}}{{$.Cont}}{{en...\": unknown field .Cont; did you mean .Count?"},
		{"template range", spec("{name: a, tasks: 1, command: [run, '{{range 5}}x{{end}}']}"), "job.yaml:3: stages[0].command[1]: \"{{range 5}}x{{end}}\": {{range}} is not supported: a task's template makes one value"},
		{"template call", spec("{name: a, tasks: 1, command: [run, '{{template \"x\"}}']}"), "job.yaml:3: stages[0].command[1]: \"{{template \\\"x\\\"}}\": {{template}} is not supported"},
		{"template define", spec("{name: a, tasks: 1, command: [run, '{{define \"x\"}}{{end}}']}"), "job.yaml:3: stages[0].command[1]: \"{{define \\\"x\\\"}}{{end}}\": {{define}} and {{block}} are not supported"},
		{"template execution", spec("{name: a, tasks: 1, command: [run, '{{.Index.Foo}}']}"), "job.yaml:3: stages[0].command[1]: \"{{.Index.Foo}}\": template: <.Index.Foo>: can't evaluate field Foo in type int"},
		{"template too long", spec("{name: a, tasks: 1, command: [run, '{{printf \"%0999999d\" 1}}']}"), "job.yaml:3: stages[0].command[1]: \"{{printf \\\"%0999999d\\\" 1}}\": template: expands to more than 131072 bytes"},
		{"template NUL", spec("{name: a, tasks: 1, command: [run, '{{printf \"%c\" 0}}']}"), "job.yaml:3: stages[0].command[1]: \"{{printf \\\"%c\\\" 0}}\": contains a NUL byte, which no argument or variable can hold"},
		{"template in env", spec("{name: a, tasks: 1, builtin: noop, env: {A: '{{.Attempts}}'}}"), "job.yaml:3: stages[0].env.A: \"{{.Attempts}}\": unknown field .Attempts; did you mean .Attempt?"},
		{"template on the first task", spec("{name: a, tasks: 1, command: [run, '{{index .Stage 5}}']}"), "job.yaml:3: stages[0].command[1]: \"{{index .Stage 5}}\": template: <index .Stage 5>: error calling index: index out of range: 5"},
	} {
		_, err := Parse([]byte(c.spec), "job.yaml", Defaults{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got\n%v\nwant\n%s", c.name, err, c.want)
		}
	}
}

// TestErrorsInLineOrder checks that many mistakes come back together,
// ordered by line whatever order the keys came in, and that the list stops.
func TestErrorsInLineOrder(t *testing.T) {
	text := "stages:\n- {name: a, tasks: 0, builtin: noop}\nname: ''\n"
	want := "job.yaml:2: stages[0].tasks: 0: must be at least 1\njob.yaml:3: name: \"\": empty"
	if _, err := Parse([]byte(text), "job.yaml", Defaults{}); err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}

	var many []string
	for range 30 {
		many = append(many, "{name: a, tasks: 0, builtin: noop}")
	}
	_, err := Parse([]byte(spec(many...)), "job.yaml", Defaults{})
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrors+1 || lines[maxErrors] != "job.yaml: stopped after 20 errors" {
		t.Errorf("%d lines, ending %q; want %d and a note that it stopped", len(lines), lines[len(lines)-1], maxErrors+1)
	}
}

// TestBounds checks the limits that keep hostile specs cheap.
func TestBounds(t *testing.T) {
	big := make([]byte, maxSpecBytes+1)
	if _, err := Parse(big, "job.yaml", Defaults{}); err == nil || err.Error() != "job.yaml: larger than 1 MiB: a job spec describes work, it does not carry data" {
		t.Errorf("a large spec: %v", err)
	}

	// A few kilobytes of aliases that stand for many values.
	args := "[" + strings.Repeat("x, ", 2000) + "x]"
	text := "name: j\nstages:\n- &s {name: a, tasks: 1, command: " + args + "}\n" + strings.Repeat("- *s\n", 1000)
	const want = ": more than 524288 values, aliases expanded: a job spec this large is a mistake"
	if _, err := Parse([]byte(text), "job.yaml", Defaults{}); err == nil || !strings.HasPrefix(err.Error(), "job.yaml:3: stages[") || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("aliases expanding to many values: %v", err)
	}
}

// A command argument, or an environment variable with its name, is
// accepted at exactly the longest string exec takes and refused one byte
// past it, naming where, in a spec's list and string commands, its env,
// a template at its longest task number, and the short form.
func TestArgumentsAtExecsBound(t *testing.T) {
	at, past := strings.Repeat("a", maxArgBytes), strings.Repeat("a", maxArgBytes+1)
	const bound = "131072 bytes: longer than the 131071 bytes Linux takes as one"
	for _, c := range []struct {
		name, spec, want string // want "": accepted
	}{
		{"an argument at the bound", spec("{name: a, tasks: 1, command: [echo, " + at + "]}"), ""},
		{"an argument past it", spec("{name: a, tasks: 1, command: [echo, " + past + "]}"), "job.yaml:3: stages[0].command[1]: " + bound + " argument (MAX_ARG_STRLEN)"},
		{"a shell command at the bound", spec("{name: a, tasks: 1, command: " + at + "}"), ""},
		{"a shell command past it", spec("{name: a, tasks: 1, command: " + past + "}"), "job.yaml:3: stages[0].command: " + bound + " argument"},
		{"a variable at the bound", spec("{name: a, tasks: 1, builtin: noop, env: {DATA: " + at[len("DATA="):] + "}}"), ""},
		{"a variable past it", spec("{name: a, tasks: 1, builtin: noop, env: {DATA: " + past[len("DATA="):] + "}}"),
			"job.yaml:3: stages[0].env.DATA: " + bound + " environment variable, with its name,"},
		// The same text fits as an argument, not behind a variable's name.
		{"an argument, then a variable", spec("{name: a, tasks: 1, command: [echo, "+at[len("DATA="):]+"], env: {DATA: "+at[len("DATA="):]+"}}",
			"{name: b, tasks: 1, command: [echo, "+at[len("DATA="):]+"], env: {LONGER: "+at[len("DATA="):]+"}}"),
			"job.yaml:4: stages[1].env.LONGER: 131073 bytes"},
		// The last of 10 tasks is "9": at the bound; of 11, "10": past it.
		{"a template at the bound", spec("{name: a, tasks: 10, command: [echo, '{{.Index}}" + at[1:] + "']}"), ""},
		{"a template past it", spec("{name: a, tasks: 11, command: [echo, '{{.Index}}" + at[1:] + "']}"), "job.yaml:3: stages[0].command[1]: " + bound},
		// An attempt number is at most 2147483647, ten digits.
		{"an attempt's template at the bound", spec("{name: a, tasks: 1, command: [echo, '{{.Attempt}}" + at[10:] + "']}"), ""},
		{"an attempt's template past it", spec("{name: a, tasks: 1, command: [echo, '{{.Attempt}}" + at[9:] + "']}"), "job.yaml:3: stages[0].command[1]: " + bound},
	} {
		_, err := Parse([]byte(c.spec), "job.yaml", Defaults{})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	if _, err := Short("j", 1, []string{"echo", at}, Defaults{}); err != nil {
		t.Errorf("the short form at the bound: %v", err)
	}
	if _, err := Short("j", 1, []string{"echo", past}, Defaults{}); err == nil || !strings.Contains(err.Error(), "command[1]: "+bound) {
		t.Errorf("the short form past the bound: %v", err)
	}
}
