package jobspec

import "path/filepath"

// shortSource names the command line in errors about a Short job.
const shortSource = "command line"

// Short is the job `spindle submit --tasks N -- COMMAND ARGS...` runs: one
// stage, "main", of tasks tasks each running argv (no shell; its elements
// are templates as a spec's are), with the defaults' resources. An empty
// name becomes argv[0]'s base name.
func Short(name string, tasks int, argv []string, d Defaults) (*Job, error) {
	def, err := d.resolve()
	if err != nil {
		return nil, err
	}
	dec := newDecoder(shortSource)
	if len(argv) == 0 || argv[0] == "" {
		dec.errorf(0, "", "no command: give it after --")
		return nil, dec.err()
	}
	if name == "" {
		name = filepath.Base(argv[0])
	}
	if err := checkName(name); err != nil {
		dec.errorf(0, "--name", "%q: %v", clip(name), err)
	}
	switch {
	case tasks < 1:
		dec.errorf(0, "--tasks", "%d: must be at least 1", tasks)
	case tasks > maxTasks:
		dec.errorf(0, "--tasks", "%d: more than the %d tasks a job may have", tasks, maxTasks)
	}
	stage := Stage{
		Name: "main", Tasks: tasks, Command: append([]string(nil), argv...),
		CPUs: def.CPUs, GPUs: def.GPUs, MaxAttempts: def.MaxAttempts,
	}
	sample := Task{Job: name, Stage: stage.Name, Count: tasks}
	for i, arg := range argv {
		dec.checkTemplate(0, index("command", i), arg, sample, 0)
	}
	if err := dec.err(); err != nil {
		return nil, err
	}
	return &Job{Name: name, Pool: def.Pool, Stages: []Stage{stage}, Source: shortSource}, nil
}
