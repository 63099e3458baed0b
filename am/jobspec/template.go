package jobspec

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"text/template/parse"
)

// Task is what a template in a stage's command or env sees: {{.Index}} and
// so on. Index and Attempt count from 0, as SPINDLE_TASK_INDEX and
// SPINDLE_ATTEMPT do; an ApplicationMaster's next attempt numbers its
// task attempts from a range of its own (1000 in the second: am/core's
// ids.go).
type Task struct {
	Job     string // the job's name
	Stage   string // the stage's name
	Index   int    // this task's, in [0, Count)
	Count   int    // tasks in the stage
	Attempt int    // this attempt's
}

// taskFields are Task's fields, the only ones a template may name.
var taskFields = []string{"Index", "Count", "Attempt", "Stage", "Job"}

// TaskCommand is the argv of one attempt of task index of s, in job:
// Command with its templates expanded. It is nil for a builtin stage.
func (s *Stage) TaskCommand(job string, index, attempt int) ([]string, error) {
	t, err := s.task(job, index, attempt)
	if err != nil || s.Command == nil {
		return nil, err
	}
	argv := make([]string, len(s.Command))
	for i, arg := range s.Command {
		if argv[i], err = expand(arg, t); err != nil {
			return nil, fmt.Errorf("stage %s: command[%d]: %q: %w", s.Name, i, clip(arg), err)
		}
	}
	return argv, nil
}

// TaskEnv is the environment s sets for one attempt of task index, in
// job: Env with its templates expanded, in Env's order.
func (s *Stage) TaskEnv(job string, index, attempt int) ([]EnvVar, error) {
	t, err := s.task(job, index, attempt)
	if err != nil {
		return nil, err
	}
	env := make([]EnvVar, len(s.Env))
	for i, v := range s.Env {
		value, err := expand(v.Value, t)
		if err != nil {
			return nil, fmt.Errorf("stage %s: env.%s: %q: %w", s.Name, v.Name, clip(v.Value), err)
		}
		env[i] = EnvVar{Name: v.Name, Value: value}
	}
	return env, nil
}

func (s *Stage) task(job string, index, attempt int) (Task, error) {
	if index < 0 || index >= s.Tasks || attempt < 0 {
		return Task{}, fmt.Errorf("stage %s: no task %d attempt %d: the stage has %d tasks", s.Name, index, attempt, s.Tasks)
	}
	return Task{Job: job, Stage: s.Name, Index: index, Count: s.Tasks, Attempt: attempt}, nil
}

// maxExpandedBytes bounds what one template expands to: Linux's limit on
// one argument or environment string (MAX_ARG_STRLEN), which exec would
// refuse anyway.
const maxExpandedBytes = 128 << 10

// expand is text with its template actions run for t. Text without "{{"
// is no template and comes back as it is. Templates are parsed on every
// call rather than kept, which keeps Stage plain data; parsing is
// microseconds, starting the task's process far more.
func expand(text string, t Task) (string, error) {
	out := text
	if strings.Contains(text, "{{") {
		tmpl, err := parseTemplate(text)
		if err != nil {
			return "", err
		}
		var b boundedBuffer
		if err := tmpl.Execute(&b, t); err != nil {
			return "", templateError(err)
		}
		out = b.String()
	}
	if strings.IndexByte(out, 0) >= 0 {
		return "", errors.New("contains a NUL byte, which no argument or variable can hold")
	}
	return out, nil
}

// parseTemplate parses a task template: Go's text/template with a Task
// for data. It refuses what could run without bound, {{range}} and
// calls of other templates, since a spec is not a program; and fields a
// Task does not have, with a did-you-mean, rather than failing a task.
func parseTemplate(text string) (*template.Template, error) {
	tmpl, err := template.New("t").Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, templateError(err)
	}
	if len(tmpl.Templates()) > 1 {
		return nil, errors.New("{{define}} and {{block}} are not supported")
	}
	if err := checkNode(tmpl.Tree.Root); err != nil {
		return nil, err
	}
	return tmpl, nil
}

func checkNode(n parse.Node) error {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil { // an absent {{else}}
			return nil
		}
		for _, c := range n.Nodes {
			if err := checkNode(c); err != nil {
				return err
			}
		}
	case *parse.ActionNode:
		return checkNode(n.Pipe)
	case *parse.IfNode:
		return checkBranch(&n.BranchNode)
	case *parse.WithNode:
		return checkBranch(&n.BranchNode)
	case *parse.RangeNode:
		return errors.New("{{range}} is not supported: a task's template makes one value")
	case *parse.TemplateNode:
		return errors.New("{{template}} is not supported")
	case *parse.PipeNode:
		for _, c := range n.Cmds {
			if err := checkNode(c); err != nil {
				return err
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			if err := checkNode(a); err != nil {
				return err
			}
		}
	case *parse.ChainNode:
		return checkNode(n.Node)
	case *parse.FieldNode:
		return checkField(n.Ident[0])
	case *parse.VariableNode:
		if n.Ident[0] == "$" && len(n.Ident) > 1 { // $ is the Task
			return checkField(n.Ident[1])
		}
	}
	return nil
}

func checkBranch(b *parse.BranchNode) error {
	for _, n := range []parse.Node{b.Pipe, b.List, b.ElseList} {
		if err := checkNode(n); err != nil {
			return err
		}
	}
	return nil
}

func checkField(name string) error {
	if slices.Contains(taskFields, name) {
		return nil
	}
	hint := " (a task has ." + strings.Join(taskFields, ", .") + ")"
	if near := nearest(name, taskFields); near != "" {
		hint = "; did you mean ." + near + "?"
	}
	return fmt.Errorf("unknown field .%s%s", clip(name), hint)
}

// templatePrefix is how text/template starts its errors: the template's
// name and a position within a one-line text, which say nothing here.
var templatePrefix = regexp.MustCompile(`^template: t:\d+(:\d+)?: (executing "t" at )?`)

func templateError(err error) error {
	return errors.New("template: " + templatePrefix.ReplaceAllString(err.Error(), ""))
}

// boundedBuffer is a strings.Builder that fails past maxExpandedBytes,
// which stops a template's execution there.
type boundedBuffer struct{ strings.Builder }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxExpandedBytes {
		return 0, fmt.Errorf("expands to more than %d bytes", maxExpandedBytes)
	}
	return b.Builder.Write(p)
}
