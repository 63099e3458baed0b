package jobspec

import (
	"reflect"
	"testing"
)

func TestTaskCommand(t *testing.T) {
	job, err := Load("testdata/example.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	shard, merge := &job.Stages[0], &job.Stages[1]
	for _, c := range []struct {
		stage          *Stage
		index, attempt int
		want           []string
	}{
		{shard, 0, 0, []string{"python3", "infer.py", "--shard", "0", "--of", "64"}},
		{shard, 63, 2, []string{"python3", "infer.py", "--shard", "63", "--of", "64"}},
		{merge, 0, 0, []string{"/bin/sh", "-c", "python3 merge.py"}},
	} {
		got, err := c.stage.TaskCommand(job.Name, c.index, c.attempt)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s task %d attempt %d: %q, %v; want %q", c.stage.Name, c.index, c.attempt, got, err, c.want)
		}
	}
	if c := shard.Command[3]; c != "{{.Index}}" {
		t.Errorf("expanding changed the stage: %q", c)
	}
}

func TestTaskTemplates(t *testing.T) {
	spec := `
name: nightly
stages:
  - name: train
    tasks: 8
    command: 'run {{printf "%03d" .Index}} of {{.Count}}{{if gt .Attempt 0}} --resume{{end}}'
    env:
      OUT: /out/{{.Job}}/{{.Stage}}/{{.Index}}
      TRY: '{{.Attempt}}'
      PLAIN: "no template {here}"
`
	job, err := Parse([]byte(spec), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	s := &job.Stages[0]
	argv, err := s.TaskCommand("renamed", 7, 1)
	if want := []string{"/bin/sh", "-c", "run 007 of 8 --resume"}; err != nil || !reflect.DeepEqual(argv, want) {
		t.Errorf("TaskCommand = %q, %v; want %q", argv, err, want)
	}
	env, err := s.TaskEnv("renamed", 7, 1)
	want := []EnvVar{{"OUT", "/out/renamed/train/7"}, {"PLAIN", "no template {here}"}, {"TRY", "1"}}
	if err != nil || !reflect.DeepEqual(env, want) {
		t.Errorf("TaskEnv = %q, %v; want %q", env, err, want)
	}
}

func TestTaskErrors(t *testing.T) {
	job, err := Parse([]byte(spec(`{name: a, tasks: 5, command: [run, '{{if eq .Index 3}}{{.Index.X}}{{end}}']}`)), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err) // the first task expands
	}
	s := &job.Stages[0]
	for _, c := range []struct {
		index, attempt int
		want           string
	}{
		{3, 0, `stage a: command[1]: "{{if eq .Index 3}}{{.Index.X}}{{end}}": template: <.Index.X>: can't evaluate field X in type int`},
		{5, 0, "stage a: no task 5 attempt 0: the stage has 5 tasks"},
		{-1, 0, "stage a: no task -1 attempt 0: the stage has 5 tasks"},
		{0, -1, "stage a: no task 0 attempt -1: the stage has 5 tasks"},
	} {
		if _, err := s.TaskCommand("j", c.index, c.attempt); err == nil || err.Error() != c.want {
			t.Errorf("task %d attempt %d: %v; want %s", c.index, c.attempt, err, c.want)
		}
	}

	hand := Stage{Name: "h", Tasks: 1, Env: []EnvVar{{"X", "{{.Nope}}"}}}
	if _, err := hand.TaskEnv("j", 0, 0); err == nil || err.Error() != `stage h: env.X: "{{.Nope}}": unknown field .Nope (a task has .Index, .Count, .Attempt, .Stage, .Job)` {
		t.Errorf("a bad template in a Stage built by hand: %v", err)
	}
}

func TestBuiltinHasNoCommand(t *testing.T) {
	job, err := Parse([]byte(spec(ok)), "job.yaml", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	s := &job.Stages[0]
	if argv, err := s.TaskCommand("j", 0, 0); argv != nil || err != nil || s.Builtin != BuiltinNoop {
		t.Errorf("builtin stage: %q, %v, builtin %q", argv, err, s.Builtin)
	}
}
