package jobspec

import "fmt"

// SplitLimit is the most splits stage i's input may be cut into
// (splits.Plan's limit): what the job's bound on tasks leaves beside its
// other stages'.
func (j *Job) SplitLimit(i int) int {
	others := 0
	for k, s := range j.Stages {
		if k != i {
			others += s.Tasks
		}
	}
	return max(maxTasks-others, 0)
}

// SetInputTasks gives stage i, which has an input, a task for each of its
// n splits: once at submit, or when the stage starts for a stage that
// reads its parent's output. An input of no splits is an error naming
// the stage, since the task count is at least 1.
func (j *Job) SetInputTasks(i, n int) error {
	if i < 0 || i >= len(j.Stages) {
		return fmt.Errorf("no stage %d", i)
	}
	s := &j.Stages[i]
	switch {
	case len(s.Input.Paths) == 0:
		return fmt.Errorf("stage %s: no input to split", s.Name)
	case n < 1:
		return fmt.Errorf("stage %s: its input %v makes no splits", s.Name, s.Input.Paths)
	case n > j.SplitLimit(i):
		return fmt.Errorf("stage %s: %d splits: more than the %d tasks the job has room for", s.Name, n, j.SplitLimit(i))
	}
	s.Tasks = n
	return nil
}
