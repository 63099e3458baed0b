package jobspec

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// example is testdata/example.yaml (the example of this package's doc) as
// a Job.
func example(source string, shardLine, mergeLine int) *Job {
	return &Job{
		Name:   "resnet-inference",
		Pool:   "production",
		Source: source,
		Stages: []Stage{{
			Name:        "shard",
			Tasks:       64,
			Command:     []string{"python3", "infer.py", "--shard", "{{.Index}}", "--of", "{{.Count}}"},
			CPUs:        1,
			MemoryMB:    2048,
			GPUs:        0.5,
			MaxAttempts: 4,
			Env:         []EnvVar{{"MODEL", "resnet50"}},
			Line:        shardLine,
		}, {
			Name:    "merge",
			After:   []string{"shard"},
			Tasks:   1,
			Command: []string{"/bin/sh", "-c", "python3 merge.py"},
			CPUs:    1,
			Line:    mergeLine,
		}},
	}
}

func TestLoadExample(t *testing.T) {
	for _, c := range []struct {
		file                 string
		shardLine, mergeLine int
	}{
		{"testdata/example.yaml", 5, 12},
		{"testdata/example.json", 5, 14},
	} {
		got, err := Load(c.file, Defaults{})
		if err != nil {
			t.Fatalf("Load(%s): %v", c.file, err)
		}
		if want := example(c.file, c.shardLine, c.mergeLine); !reflect.DeepEqual(got, want) {
			t.Errorf("Load(%s) =\n%+v\nwant\n%+v", c.file, got, want)
		}
	}
}

// TestJSONFixtureMatches keeps the two fixtures saying the same thing:
// everything but where each stage starts.
func TestJSONFixtureMatches(t *testing.T) {
	y, err := Load("testdata/example.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := Load("testdata/example.json", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	y.Source, j.Source = "", ""
	for i := range y.Stages {
		y.Stages[i].Line, j.Stages[i].Line = 0, 0
	}
	if !reflect.DeepEqual(y, j) {
		t.Errorf("YAML\n%+v\nJSON\n%+v", y, j)
	}
}

func TestDefaults(t *testing.T) {
	spec := "name: j\nstages:\n- {name: a, tasks: 1, builtin: noop}\n- {name: b, tasks: 1, builtin: noop, maxAttempts: 2, resources: {cpus: 3, gpus: 0}}\n"
	for _, c := range []struct {
		defaults Defaults
		a, b     Stage
		pool     string
	}{{
		defaults: Defaults{},
		a:        Stage{CPUs: 1},
		b:        Stage{CPUs: 3, MaxAttempts: 2},
		pool:     "default",
	}, {
		defaults: Defaults{CPUs: 2, GPUs: 0.25, MaxAttempts: 7, Pool: "batch"},
		a:        Stage{CPUs: 2, GPUs: 0.25, MaxAttempts: 7},
		b:        Stage{CPUs: 3, GPUs: 0, MaxAttempts: 2}, // gpus: 0 asks for none over the default
		pool:     "batch",
	}} {
		job, err := Parse([]byte(spec), "job.yaml", c.defaults)
		if err != nil {
			t.Fatal(err)
		}
		a, b := job.Stages[0], job.Stages[1]
		if a.CPUs != c.a.CPUs || a.GPUs != c.a.GPUs || a.MaxAttempts != c.a.MaxAttempts ||
			b.CPUs != c.b.CPUs || b.GPUs != c.b.GPUs || b.MaxAttempts != c.b.MaxAttempts || job.Pool != c.pool {
			t.Errorf("with %+v: pool %q, stages %+v %+v; want pool %q, %+v %+v", c.defaults, job.Pool, a, b, c.pool, c.a, c.b)
		}
	}

	job, err := Parse([]byte("name: j\npool: mine\nstages: [{name: a, tasks: 1, builtin: noop}]"), "job.yaml", Defaults{Pool: "batch"})
	if err != nil || job.Pool != "mine" {
		t.Errorf("a spec's pool over the default: %v, %v", job, err)
	}
}

func TestBadDefaults(t *testing.T) {
	spec := []byte("name: j\nstages: [{name: a, tasks: 1, builtin: noop}]")
	for _, c := range []struct {
		d    Defaults
		want string
	}{
		{Defaults{GPUs: 1.5}, "default task GPU amount: 1.5: above 1 a GPU amount must be whole (tasks share a GPU only below 1)"},
		{Defaults{MaxAttempts: -1}, "default task attempts -1: want 0 (the scheduler's default) to 100"},
		{Defaults{MaxAttempts: 101}, "default task attempts 101: want 0 (the scheduler's default) to 100"},
	} {
		if _, err := Parse(spec, "job.yaml", c.d); err == nil || err.Error() != c.want {
			t.Errorf("Parse with %+v: %v; want %s", c.d, err, c.want)
		}
	}
}

// A task may have up to scheduler.MaxAttemptsLimit attempts, from its
// stage or by default (one more is refused: TestBadDefaults, TestErrors).
func TestMaxAttemptsAtTheLimit(t *testing.T) {
	spec := []byte("name: j\nstages: [{name: a, tasks: 1, builtin: noop, maxAttempts: 100}, {name: b, tasks: 1, builtin: noop}]")
	job, err := Parse(spec, "job.yaml", Defaults{MaxAttempts: 100})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := job.Stages[0].MaxAttempts, job.Stages[1].MaxAttempts; a != 100 || b != 100 {
		t.Fatalf("maxAttempts %d and %d, want 100 from the stage and 100 by default", a, b)
	}
}

// TestValues covers the forms values may take beyond the example.
func TestValues(t *testing.T) {
	spec := `
name: 2024                       # a number as a name is its text
stages:
  - name: a
    tasks: 3
    builtin: noop
    resources:
      memory: 1536                 # MiB
      gpus: 2
    maxAttempts:                   # null: absent
    preferredHosts: [h1, h2]
  - name: b
    after: [a]
    tasks: 1
    command: [sleep, 5, true]
    env: {B: true, A: 1.5, C: ""}
    resources: {memory: 1g, gpus: 1}
`
	job, err := Parse([]byte(spec), "job.yaml", Defaults{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	a, b := job.Stages[0], job.Stages[1]
	switch {
	case job.Name != "2024":
		t.Errorf("name %q", job.Name)
	case a.MemoryMB != 1536 || a.GPUs != 2 || a.MaxAttempts != 3 || !reflect.DeepEqual(a.PreferredHosts, []string{"h1", "h2"}):
		t.Errorf("stage a: %+v", a)
	case b.MemoryMB != 1024 || !reflect.DeepEqual(b.Command, []string{"sleep", "5", "true"}):
		t.Errorf("stage b: %+v", b)
	case !reflect.DeepEqual(b.Env, []EnvVar{{"A", "1.5"}, {"B", "true"}, {"C", ""}}):
		t.Errorf("env %v, want sorted by name, values as written", b.Env)
	}
}

func TestAliases(t *testing.T) {
	spec := `
name: j
stages:
  - name: a
    tasks: 2
    command: &cmd [run, "{{.Index}}"]
    env: &env {X: "1"}
  - {name: b, tasks: 1, command: *cmd, env: *env}
`
	job, err := Parse([]byte(spec), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := job.Stages[0], job.Stages[1]; !reflect.DeepEqual(a.Command, b.Command) || !reflect.DeepEqual(a.Env, b.Env) {
		t.Errorf("aliased values differ: %+v, %+v", a, b)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "absent.yaml"), Defaults{}); err == nil || !strings.HasPrefix(err.Error(), "job spec: open ") {
		t.Errorf("absent file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("name: x\n"+strings.Repeat("# padding\n", maxSpecBytes/10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, Defaults{}); err == nil || err.Error() != big+": larger than 1 MiB: a job spec describes work, it does not carry data" {
		t.Errorf("large file: %v", err)
	}
}

// gang: true reaches the scheduler's stage and survives Marshal; a stage
// not a gang keeps its locality hint.
func TestGang(t *testing.T) {
	j, err := Parse([]byte("name: j\nstages:\n- {name: a, tasks: 4, builtin: noop, gang: true}\n- {name: b, tasks: 1, builtin: noop, gang: false, preferredHosts: [h1]}\n"), "job.yaml", Defaults{CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := j.SchedulerSpec(0)
	if err != nil {
		t.Fatal(err)
	}
	if !spec.Stages[0].Gang || spec.Stages[1].Gang {
		t.Fatalf("gang %v %v", spec.Stages[0].Gang, spec.Stages[1].Gang)
	}
	out, err := j.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out, "again.json", Defaults{CPUs: 1})
	if err != nil || !again.Stages[0].Gang || again.Stages[1].Gang {
		t.Fatalf("marshalled %s: %v", out, err)
	}
}
