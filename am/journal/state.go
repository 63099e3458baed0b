package journal

import (
	"cmp"
	"fmt"
	"net"
	"slices"
)

// State is what a journal says, read to its end: the executors not known
// to have gone, and the jobs that had not ended with the tasks of each
// that succeeded.
type State struct {
	App       string
	Executors map[string]Executor // by container id
	Jobs      []*JobState         // in submission order
	// NextJob is the lowest job id not taken, by ended jobs either: the
	// next attempt numbers its jobs from it.
	NextJob int
	// NextStage is the lowest stage id no job took.
	NextStage int
	// Drains are the executors of Executors that drain, by container id
	// (nil when none does).
	Drains map[string]Drain
}

// JobState is a job that had not ended.
type JobState struct {
	Job
	// Done are its tasks that succeeded, stage by stage in its spec's
	// order.
	Done []Tasks
	// Failed counts the failures of its tasks that have not succeeded.
	Failed map[TaskRef]int
}

// NewState is the state of an application that journalled nothing yet.
func NewState(app string) *State { return &State{App: app, Executors: map[string]Executor{}} }

// Apply applies one entry, or says why it cannot be: an entry that
// contradicts what came before changes nothing.
func (s *State) Apply(e Entry) error {
	if n := e.set(); n != 1 {
		return fmt.Errorf("an entry sets %d kinds of record; want exactly 1", n)
	}
	switch {
	case e.Executor != nil:
		x := *e.Executor
		if x.Container == "" {
			return fmt.Errorf("an executor with no container id")
		}
		if _, _, err := net.SplitHostPort(x.Address); err != nil {
			return fmt.Errorf("executor %s: address %q: %v", x.Container, x.Address, err)
		}
		if x.Profile < 0 {
			return fmt.Errorf("executor %s: profile %d", x.Container, x.Profile)
		}
		s.Executors[x.Container] = x
	case e.ExecutorGone != "":
		// A container may end before its executor registered, or
		// twice over (released, then reported): gone is gone.
		delete(s.Executors, e.ExecutorGone)
		delete(s.Drains, e.ExecutorGone)
	case e.Drain != nil:
		return s.drain(*e.Drain)
	case e.Undrained != "":
		delete(s.Drains, e.Undrained)
	case e.Job != nil:
		return s.submitted(*e.Job)
	case e.TasksDone != nil:
		return s.tasksDone(e.TasksDone)
	case e.TaskFailed != nil:
		return s.taskFailed(*e.TaskFailed)
	case e.JobEnded != nil:
		return s.ended(*e.JobEnded)
	case e.NextStage != nil:
		if *e.NextStage < 0 {
			return fmt.Errorf("next stage id %d", *e.NextStage)
		}
		s.NextStage = max(s.NextStage, *e.NextStage)
	default:
		if *e.NextJob < 0 {
			return fmt.Errorf("next job id %d", *e.NextJob)
		}
		s.NextJob = max(s.NextJob, *e.NextJob)
	}
	return nil
}

func (s *State) submitted(j Job) error {
	if j.ID < s.NextJob {
		return fmt.Errorf("job %d submitted when ids below %d were taken: ids must rise", j.ID, s.NextJob)
	}
	if len(j.Spec) == 0 || len(j.StageProfiles) == 0 || j.FirstStage < 0 {
		return fmt.Errorf("job %d: no spec or no stages", j.ID)
	}
	for _, p := range j.StageProfiles {
		if p < 0 {
			return fmt.Errorf("job %d: stage profile %d", j.ID, p)
		}
	}
	if len(j.StageShapes) > 0 && len(j.StageShapes) != len(j.StageProfiles) {
		return fmt.Errorf("job %d: %d stage shapes for %d stages", j.ID, len(j.StageShapes), len(j.StageProfiles))
	}
	for i, sh := range j.StageShapes {
		if err := sh.check(); err != nil {
			return fmt.Errorf("job %d: stage %d's shape %+v: %w", j.ID, i, sh, err)
		}
	}
	s.NextJob = j.ID + 1
	s.NextStage = max(s.NextStage, j.FirstStage+len(j.StageProfiles))
	s.Jobs = append(s.Jobs, &JobState{Job: j, Done: make([]Tasks, len(j.StageProfiles)), Failed: map[TaskRef]int{}})
	return nil
}

// job finds a job by id: live, ended (nil, nil), or never submitted.
func (s *State) job(id int) (*JobState, error) {
	if id < 0 || id >= s.NextJob {
		return nil, fmt.Errorf("job %d was never submitted", id)
	}
	for _, j := range s.Jobs {
		if j.ID == id {
			return j, nil
		}
	}
	return nil, nil
}

func (s *State) tasksDone(t *TasksDone) error {
	j, err := s.job(t.Job)
	if err != nil || j == nil {
		return err // an ended job's tasks change nothing
	}
	if t.Stage < 0 || t.Stage >= len(j.StageProfiles) {
		return fmt.Errorf("job %d has no stage %d", t.Job, t.Stage)
	}
	if t.Tasks.Len() == 0 {
		return fmt.Errorf("job %d stage %d: tasks done, but no task", t.Job, t.Stage)
	}
	j.Done[t.Stage].addAll(&t.Tasks)
	// Their failures count no more.
	for r := range j.Failed {
		if r.Stage == t.Stage && j.Done[t.Stage].Has(r.Index) {
			delete(j.Failed, r)
		}
	}
	return nil
}

func (s *State) taskFailed(t TaskRef) error {
	j, err := s.task(t)
	if err != nil || j == nil || j.Done[t.Stage].Has(t.Index) {
		return err
	}
	j.Failed[t]++
	return nil
}

// task finds task t's job: live, ended (nil, nil), or an error for a
// job never submitted or a task it does not have.
func (s *State) task(t TaskRef) (*JobState, error) {
	j, err := s.job(t.Job)
	if err != nil || j == nil {
		return nil, err
	}
	if t.Stage < 0 || t.Stage >= len(j.StageProfiles) || t.Index < 0 {
		return nil, fmt.Errorf("job %d has no stage %d task %d", t.Job, t.Stage, t.Index)
	}
	return j, nil
}

func (s *State) ended(id int) error {
	if _, err := s.job(id); err != nil {
		return err
	}
	s.Jobs = slices.DeleteFunc(s.Jobs, func(j *JobState) bool { return j.ID == id })
	return nil
}

// Entries are the state as a snapshot's entries: applied in order to a
// new State they give this one. They share nothing that the state
// changes later: they may be encoded while it goes on.
func (s *State) Entries() []Entry {
	var out []Entry
	for _, c := range sortedKeys(s.Executors) {
		x := s.Executors[c]
		out = append(out, Entry{Executor: &x})
		if d, ok := s.Drains[c]; ok {
			out = append(out, Entry{Drain: &d})
		}
	}
	for _, j := range s.Jobs {
		job := j.Job
		out = append(out, Entry{Job: &job})
		for stage := range j.Done {
			if j.Done[stage].Len() > 0 {
				out = append(out, Entry{TasksDone: &TasksDone{Job: j.ID, Stage: stage, Tasks: j.Done[stage].clone()}})
			}
		}
		for _, t := range sortedTasks(j.Failed) {
			for range j.Failed[t] {
				out = append(out, Entry{TaskFailed: &TaskRef{Job: t.Job, Stage: t.Stage, Index: t.Index}})
			}
		}
	}
	return append(out, s.ids()...)
}

// ids are the entries saying which job and stage ids are taken, and
// nothing else: a snapshot of them starts the work over.
func (s *State) ids() []Entry {
	if s.NextJob == 0 {
		return nil
	}
	next, stage := s.NextJob, s.NextStage
	return []Entry{{NextJob: &next}, {NextStage: &stage}}
}

func sortedTasks(m map[TaskRef]int) []TaskRef {
	out := make([]TaskRef, 0, len(m))
	for t := range m {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b TaskRef) int { return cmp.Or(cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Index, b.Index)) })
	return out
}

func sortedKeys(m map[string]Executor) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// check holds a shape to what a profile may be.
func (sh Shape) check() error {
	if sh.Cores < 1 || sh.MemoryMB < 0 || sh.GPUs < 0 || sh.MaxPerNode < 0 {
		return fmt.Errorf("want at least 1 core, no negative memory, GPUs or maxPerNode")
	}
	if sh.Affinity != "" && sh.Affinity != "spread" && sh.Affinity != "pack" {
		return fmt.Errorf("affinity %q: want spread or pack", sh.Affinity)
	}
	for name, n := range sh.Accels {
		if name == "" || n < 0 {
			return fmt.Errorf("accelerator %q %d", name, n)
		}
	}
	return nil
}

// String writes the shape's fields, those a journal of before lacks only
// when set.
func (sh Shape) String() string {
	s := fmt.Sprintf("{Cores:%d MemoryMB:%d GPUs:%d", sh.Cores, sh.MemoryMB, sh.GPUs)
	if len(sh.Accels) > 0 {
		s += fmt.Sprintf(" Accels:%v", sh.Accels)
	}
	if sh.NodeLabel != "" {
		s += " NodeLabel:" + sh.NodeLabel
	}
	if sh.Affinity != "" || sh.MaxPerNode != 0 {
		s += fmt.Sprintf(" Affinity:%s MaxPerNode:%d", sh.Affinity, sh.MaxPerNode)
	}
	return s + "}"
}
