package jobspec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/internal/splits"
)

func TestInputReadsEachSplitMode(t *testing.T) {
	for _, c := range []struct {
		split string
		want  splits.Mode
	}{
		{"", splits.Mode{Kind: splits.PerFile}},
		{", split: file", splits.Mode{Kind: splits.PerFile}},
		{", split: block", splits.Mode{Kind: splits.PerBlock}},
		{", split: {files: 10}", splits.Mode{Kind: splits.PerFiles, N: 10}},
		{", split: {bytes: 256m}", splits.Mode{Kind: splits.PerBytes, N: 256 << 20}},
		{", split: {bytes: 1000}", splits.Mode{Kind: splits.PerBytes, N: 1000}},
	} {
		src := spec("{name: a, builtin: noop, input: {paths: [hdfs://nn/d/*.parquet, /data/x]" + c.split + "}}")
		job, err := Parse([]byte(src), "job.yaml", Defaults{})
		if err != nil {
			t.Fatalf("%s: %v", c.split, err)
		}
		s := job.Stages[0]
		want := Input{Paths: []string{"hdfs://nn/d/*.parquet", "/data/x"}, Split: c.want}
		if !reflect.DeepEqual(s.Input, want) || s.Tasks != 0 {
			t.Errorf("%s: input %+v, tasks %d; want %+v and 0 tasks until split", c.split, s.Input, s.Tasks, want)
		}
	}
	job, err := Parse([]byte(spec("{name: a, builtin: noop, input: {paths: file:///data}}")), "job.yaml", Defaults{})
	if err != nil || !reflect.DeepEqual(job.Stages[0].Input.Paths, []string{"file:///data"}) {
		t.Errorf("one path as a string: %+v, %v", job, err)
	}
}

func TestInputErrorsNameTheStageAndField(t *testing.T) {
	for _, c := range []struct{ name, spec, want string }{
		{"tasks beside", spec("{name: a, tasks: 2, builtin: noop, input: {paths: [/x]}}"),
			"job.yaml:3: stages[0].tasks: give tasks or input, not both"},
		{"neither", spec("{name: a, builtin: noop}"),
			"job.yaml:3: stages[0].tasks: missing"},
		{"no paths", spec("{name: a, builtin: noop, input: {split: file}}"),
			"job.yaml:3: stages[0].input.paths: missing: name the files to read"},
		{"empty paths", spec("{name: a, builtin: noop, input: {paths: []}}"),
			"job.yaml:3: stages[0].input.paths: a list: want a path or a list of at least one"},
		{"relative", "name: j\nstages:\n- name: a\n  builtin: noop\n  input:\n    paths:\n    - /ok\n    - data/x\n",
			`job.yaml:8: stages[0].input.paths[1]: "data/x": a relative path`},
		{"empty path", spec("{name: a, builtin: noop, input: {paths: ['']}}"),
			"job.yaml:3: stages[0].input.paths[0]: an empty path"},
		{"control", spec(`{name: a, builtin: noop, input: {paths: ["/a\tb"]}}`),
			"job.yaml:3: stages[0].input.paths[0]: \"/a\\tb\": contains a control character"},
		{"unknown split", spec("{name: a, builtin: noop, input: {paths: [/x], split: line}}"),
			`job.yaml:3: stages[0].input.split: "line": want file, block, {files: N} or {bytes: SIZE}`},
		{"unknown split key", spec("{name: a, builtin: noop, input: {paths: [/x], split: {lines: 3}}}"),
			"job.yaml:3: stages[0].input.split: want file, block, {files: N} or {bytes: SIZE}"},
		{"files 0", spec("{name: a, builtin: noop, input: {paths: [/x], split: {files: 0}}}"),
			"job.yaml:3: stages[0].input.split.files: 0: must be at least 1"},
		{"bytes bad", spec("{name: a, builtin: noop, input: {paths: [/x], split: {bytes: 2q}}}"),
			`job.yaml:3: stages[0].input.split.bytes: "2q": unknown size unit "q"`},
		{"bytes 0", spec("{name: a, builtin: noop, input: {paths: [/x], split: {bytes: 0}}}"),
			"job.yaml:3: stages[0].input.split.bytes: 0: must be above 0"},
		{"unknown input key", spec("{name: a, builtin: noop, input: {path: [/x]}}"),
			`job.yaml:3: stages[0].input: unknown key "path"; did you mean paths?`},
		{"hosts beside", spec("{name: a, builtin: noop, preferredHosts: [h1], input: {paths: [/x]}}"),
			"job.yaml:3: stages[0].preferredHosts: a stage with an input takes its hosts from its splits"},
	} {
		_, err := Parse([]byte(c.spec), "job.yaml", Defaults{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
}

func TestInputStageTakesItsTasksFromItsSplits(t *testing.T) {
	job, err := Parse([]byte(spec(ok, "{name: a, builtin: noop, after: [ok], input: {paths: [/x]}}")), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := job.SchedulerSpec(0); err == nil || !strings.Contains(err.Error(), "stage a: its input is not split") {
		t.Errorf("SchedulerSpec before the split: %v", err)
	}
	if got := job.SplitLimit(1); got != maxTasks-1 {
		t.Errorf("SplitLimit: %d, want %d", got, maxTasks-1)
	}
	for _, n := range []int{0, maxTasks} {
		if err := job.SetInputTasks(1, n); err == nil {
			t.Errorf("SetInputTasks(1, %d): no error", n)
		}
	}
	if err := job.SetInputTasks(0, 3); err == nil {
		t.Errorf("SetInputTasks on a stage with no input: no error")
	}
	if err := job.SetInputTasks(1, 7); err != nil {
		t.Fatal(err)
	}
	sched, err := job.SchedulerSpec(0)
	if err != nil || sched.Stages[1].Tasks != 7 {
		t.Errorf("SchedulerSpec after the split: %+v, %v", sched, err)
	}
}

func TestMarshalSpecWritesTheInputNotItsTasks(t *testing.T) {
	src := spec("{name: a, builtin: noop, input: {paths: [/x, 'hdfs://nn/y/*'], split: {bytes: 64m}}}")
	job, err := Parse([]byte(src), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.SetInputTasks(0, 5); err != nil {
		t.Fatal(err)
	}
	out, err := job.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	want := `"input":{"paths":["/x","hdfs://nn/y/*"],"split":{"bytes":67108864}}`
	if !strings.Contains(string(out), want) || strings.Contains(string(out), `"tasks"`) {
		t.Errorf("wrote %s, want %s and no tasks", out, want)
	}
	again, err := Parse(out, "job.json", Defaults{})
	if err != nil || !reflect.DeepEqual(again.Stages[0].Input, job.Stages[0].Input) {
		t.Errorf("read back %+v, %v", again, err)
	}
}
