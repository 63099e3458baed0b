package jobspec

import (
	"reflect"
	"testing"
)

func TestShort(t *testing.T) {
	job, err := Short("", 4, []string{"/usr/bin/python3", "work.py", "{{.Index}}"}, Defaults{CPUs: 2, GPUs: 1, MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := &Job{Name: "python3", Pool: "default", Source: "command line", Stages: []Stage{{
		Name: "main", Tasks: 4, Command: []string{"/usr/bin/python3", "work.py", "{{.Index}}"},
		CPUs: 2, GPUs: 1, MaxAttempts: 3,
	}}}
	if !reflect.DeepEqual(job, want) {
		t.Errorf("Short =\n%+v\nwant\n%+v", job, want)
	}
	argv, err := job.Stages[0].TaskCommand(job.Name, 2, 0)
	if want := []string{"/usr/bin/python3", "work.py", "2"}; err != nil || !reflect.DeepEqual(argv, want) {
		t.Errorf("TaskCommand = %q, %v; want %q", argv, err, want)
	}

	job, err = Short("named", 1, []string{"true"}, Defaults{Pool: "batch"})
	if err != nil || job.Name != "named" || job.Pool != "batch" {
		t.Errorf("Short with a name and pool: %+v, %v", job, err)
	}
}

func TestShortErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		tasks int
		argv  []string
		d     Defaults
		want  string
	}{
		{"", 1, nil, Defaults{}, "command line: no command: give it after --"},
		{"", 1, []string{""}, Defaults{}, "command line: no command: give it after --"},
		{"", 0, []string{"true"}, Defaults{}, "command line: --tasks: 0: must be at least 1"},
		{"", 10_000_001, []string{"true"}, Defaults{}, "command line: --tasks: 10000001: more than the 10000000 tasks a job may have"},
		{"a\nb", 1, []string{"true"}, Defaults{}, `command line: --name: "a\nb": contains a control character`},
		{"", 1, []string{"echo", "{{.Idx}}"}, Defaults{}, `command line: command[1]: "{{.Idx}}": unknown field .Idx (a task has .Index, .Count, .Attempt, .Stage, .Job)`},
		{"", 1, []string{"true"}, Defaults{GPUs: -1}, "default task GPU amount: -1: a GPU amount must be above 0"},
	} {
		if _, err := Short(c.name, c.tasks, c.argv, c.d); err == nil || err.Error() != c.want {
			t.Errorf("Short(%q, %d, %q): %v; want %s", c.name, c.tasks, c.argv, err, c.want)
		}
	}
}
