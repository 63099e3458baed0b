package journal

// Entry is one line of a segment: exactly one of its fields is set.
type Entry struct {
	Executor     *Executor  `json:"executor,omitempty"`
	ExecutorGone string     `json:"executorGone,omitempty"`
	Job          *Job       `json:"job,omitempty"`
	TasksDone    *TasksDone `json:"tasksDone,omitempty"`
	// TaskFailed is one failure counted against a task: the next attempt
	// counts it again (once per failure, until the task succeeds).
	TaskFailed *TaskRef `json:"taskFailed,omitempty"`
	JobEnded   *int     `json:"jobEnded,omitempty"`
	// NextJob says the job ids below it are taken, ended jobs' too: a
	// snapshot, which keeps no ended job, ends with it.
	NextJob *int `json:"nextJob,omitempty"`
	// NextStage says the same of stage ids.
	NextStage *int `json:"nextStage,omitempty"`
	// Drain is an executor that started draining (drain.go); Undrained
	// one whose node was recommissioned, which takes tasks again.
	Drain     *Drain `json:"drain,omitempty"`
	Undrained string `json:"undrained,omitempty"`
}

// Executor is an executor that registered: its container, where the next
// attempt can reach it, and what the AM knew of its container.
type Executor struct {
	Container string `json:"container"`
	// Address is its rejoin listener, host:port.
	Address    string   `json:"address"`
	Node       string   `json:"node"`     // NodeId, host:port
	NodeName   string   `json:"nodeName"` // as exclusions name it
	Profile    int      `json:"profile"`
	GPUIndices []string `json:"gpuIndices,omitempty"`
	// AccelIndices are the indices of each accelerator besides GPUs the
	// AM picked for it, by name.
	AccelIndices map[string][]string `json:"accelIndices,omitempty"`
}

// Job is a job submitted, by its id in the application (the
// scheduler's, from 0).
type Job struct {
	ID int `json:"id"`
	// FirstStage is its first stage's id; the others follow it. The next
	// attempt numbers them the same, as the executors it adopts name
	// their attempts by them.
	FirstStage int `json:"firstStage"`
	// Spec is the job's spec as the AM holds it (jobspec's MarshalSpec).
	Spec []byte `json:"spec"`
	// StageProfiles is each stage's executor profile.
	StageProfiles []int `json:"stageProfiles"`
	// StageShapes is, stage by stage, the shape of that profile: a
	// session adds profiles as its jobs need them, which the next
	// attempt's configuration lacks. Empty in journals of before.
	StageShapes []Shape `json:"stageShapes,omitempty"`
}

// Shape is what an executor of a profile offers, and where it is asked:
// a session adds profiles for stages naming accelerators, a node label
// or a placement of their own (empty in journals of before).
type Shape struct {
	Cores    int   `json:"cores"`
	MemoryMB int64 `json:"memoryMB"`
	GPUs     int   `json:"gpus"`
	// Accels are its accelerators besides GPUs, by name.
	Accels     map[string]int `json:"accels,omitempty"`
	NodeLabel  string         `json:"nodeLabel,omitempty"`
	Affinity   string         `json:"affinity,omitempty"` // "", "spread" or "pack"
	MaxPerNode int            `json:"maxPerNode,omitempty"`
}

// TasksDone are tasks of one stage that succeeded: stage is the stage's
// index in its job's spec. A delta holds one per stage whose tasks
// succeeded since the segment before, a snapshot one per stage with
// any done.
type TasksDone struct {
	Job   int   `json:"job"`
	Stage int   `json:"stage"`
	Tasks Tasks `json:"tasks"`
}

// TaskDone is the entry saying task index of stage (its index in the
// job's spec) of job succeeded. An index out of bounds makes an entry
// Apply refuses, as holding no task.
func TaskDone(job, stage, index int) Entry {
	d := &TasksDone{Job: job, Stage: stage}
	_ = d.Tasks.Add(index) // refused by Apply when it fails
	return Entry{TasksDone: d}
}

// TaskRef names one task: stage is the stage's index in its job's spec,
// index the task's.
type TaskRef struct {
	Job   int `json:"job"`
	Stage int `json:"stage"`
	Index int `json:"index"`
}

// set counts the fields an entry sets.
func (e Entry) set() int {
	n := 0
	for _, ok := range []bool{e.Executor != nil, e.ExecutorGone != "", e.Job != nil, e.TasksDone != nil, e.TaskFailed != nil, e.JobEnded != nil,
		e.NextJob != nil, e.NextStage != nil, e.Drain != nil, e.Undrained != ""} {
		if ok {
			n++
		}
	}
	return n
}
