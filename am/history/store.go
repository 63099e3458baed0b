package history

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// Store is an application as its events tell it, bounded by Limits. The
// driver's loop records into it while the web UI reads it: one lock,
// taken once per batch of events and once per query.
type Store struct {
	mu  sync.RWMutex
	lim Limits

	app     AppStarted
	started time.Time
	end     *AppEnded
	ended   time.Time
	pools   []PoolInfo
	env     []Setting

	jobs      map[int64]*job
	jobOrder  []*job // submission order; ended ones beyond RetainedJobs dropped
	endedJobs int
	stages    map[int64]*stage

	execs     map[string]*executor
	execOrder []*executor
	live      int // executors not removed

	timeline timeline
	// restoring counts the events of a snapshot still to come
	// (compact.go).
	restoring int
}

type job struct {
	JobSubmitted
	state, reason    string
	submitted, ended time.Time
	stages           []*stage
}

type stage struct {
	info   StageInfo
	job    *job
	index  int    // its place among its job's stages
	tasks  []task // by index, the first RetainedTasks
	extras []taskExtra
	// earlier are retried tasks' attempts before their latest, by index
	// (attempts.go).
	earlier                map[int][]task
	succeeded, running     int
	failed, killed         int // attempts
	started, ended         time.Time
	firstStarted, allEnded bool
	gang                   *gangRuns // nil for a stage that is no gang
}

// task is a task's latest attempt, in 40 bytes and no pointer: a stage
// of 100,000 tasks is 4 MB the garbage collector need not scan. Times
// are Unix milliseconds; exec is its executor's place in the Store's
// execOrder and extra its GPUs' and reason's in its stage's extras, each
// plus one (0: none).
type task struct {
	start, end int64
	attempt    int32
	exec       int32
	exit       int32
	extra      int32
	state      taskState
}

// taskExtra is what few tasks have: GPU and other accelerators'
// addresses, a reason.
type taskExtra struct {
	gpus   []string
	accels []Resource
	reason string
}

// executor is the executor t's attempt ran on, nil when none known.
func (s *Store) executorOf(t *task) *executor {
	if t.exec == 0 {
		return nil
	}
	return s.execOrder[t.exec-1]
}

// extraOf is t's extra, the zero one when it has none.
func (st *stage) extraOf(t *task) taskExtra {
	if t.extra == 0 {
		return taskExtra{}
	}
	return st.extras[t.extra-1]
}

// setExtra gives t its GPUs and reason, in its slot if it has one.
func (st *stage) setExtra(t *task, e taskExtra) {
	switch {
	case t.extra > 0:
		st.extras[t.extra-1] = e
	case e.gpus != nil || e.accels != nil || e.reason != "":
		st.extras = append(st.extras, e)
		t.extra = int32(len(st.extras))
	}
}

type taskState uint8

const (
	tNone taskState = iota
	tRunning
	tSucceeded
	tFailed
	tKilled
)

var taskStates = [...]string{tNone: "pending", tRunning: TaskRunning, tSucceeded: TaskSucceeded, tFailed: TaskFailed, tKilled: TaskKilled}

type executor struct {
	ExecutorAdded
	slot                               int32 // its place in execOrder
	added, removed                     time.Time
	gone                               *ExecutorRemoved
	running, succeeded, failed, killed int
}

// NewStore is an empty Store keeping what lim allows (zero fields take
// DefaultLimits').
func NewStore(lim Limits) *Store {
	if lim.RetainedJobs <= 0 {
		lim.RetainedJobs = DefaultLimits.RetainedJobs
	}
	if lim.RetainedTasks <= 0 {
		lim.RetainedTasks = DefaultLimits.RetainedTasks
	}
	lim.RetainedTasks = min(lim.RetainedTasks, MaxRetainedTasks)
	if lim.RetainedAttempts <= 0 {
		lim.RetainedAttempts = DefaultLimits.RetainedAttempts
	}
	if lim.TimelinePoints < 2 {
		lim.TimelinePoints = DefaultLimits.TimelinePoints
	}
	s := &Store{lim: lim}
	s.reset()
	return s
}

// reset empties the Store (its lock and limits stay).
func (s *Store) reset() {
	lim := s.lim
	s.app, s.started, s.end, s.ended, s.pools, s.env = AppStarted{}, time.Time{}, nil, time.Time{}, nil, nil
	s.jobs, s.jobOrder, s.endedJobs, s.stages = map[int64]*job{}, nil, 0, map[int64]*stage{}
	s.execs, s.execOrder, s.live = map[string]*executor{}, nil, 0
	s.timeline, s.restoring = timeline{max: lim.TimelinePoints, step: time.Second}, 0
}

// Record applies events in order. An event that contradicts the Store (a
// task of a stage it never heard of) is skipped with an error naming it:
// the rest still apply.
func (s *Store) Record(events ...Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for i := range events {
		if err := s.apply(&events[i]); err != nil && first == nil {
			first = err
		}
	}
	// A snapshot's samples, if any, are replaced by its Timeline, its
	// last event, which is at its last point's time: no sample then.
	if len(events) > 0 {
		s.timeline.sample(events[len(events)-1].Time, s)
	}
	return first
}

func (s *Store) apply(e *Event) error {
	if n := e.kinds(); n != 1 {
		return fmt.Errorf("an event sets %d kinds, not one", n)
	}
	if e.Snapshot != nil {
		if e.Snapshot.Events < 0 {
			return fmt.Errorf("a snapshot of %d events", e.Snapshot.Events)
		}
		s.reset()
		s.restoring = e.Snapshot.Events
		return nil
	}
	snapshotOnly := e.StageCounts != nil || e.ExecutorCounts != nil || e.Timeline != nil || e.Gang != nil
	switch {
	case s.restoring > 0:
		s.restoring--
	case snapshotOnly:
		return fmt.Errorf("a snapshot's event outside a snapshot")
	}
	if snapshotOnly {
		return s.restore(e)
	}
	switch {
	case e.App != nil:
		s.app, s.started = *e.App, e.Time
	case e.Pools != nil:
		s.pools = append([]PoolInfo(nil), e.Pools...)
	case e.Environment != nil:
		s.env = slices.Clone(e.Environment)
	case e.JobSubmitted != nil:
		return s.jobSubmitted(e.Time, e.JobSubmitted)
	case e.JobEnded != nil:
		return s.jobEnded(e.Time, e.JobEnded)
	case e.TaskStarted != nil:
		return s.taskStarted(e.Time, e.TaskStarted)
	case e.TaskEnded != nil:
		return s.taskEnded(e.Time, e.TaskEnded)
	case e.GangStarted != nil:
		return s.gangStarted(e.Time, e.GangStarted)
	case e.GangTimedOut != nil:
		return s.gangTimedOut(e.Time, e.GangTimedOut)
	case e.ExecutorAdded != nil:
		x := &executor{ExecutorAdded: *e.ExecutorAdded, added: e.Time}
		if old := s.execs[x.ID]; old != nil && old.gone == nil {
			return fmt.Errorf("executor %s added twice", x.ID)
		}
		s.execs[x.ID] = x
		x.slot = int32(len(s.execOrder))
		s.execOrder = append(s.execOrder, x)
		s.live++
	case e.ExecutorRemoved != nil:
		x := s.execs[e.ExecutorRemoved.ID]
		if x == nil || x.gone != nil {
			return fmt.Errorf("executor %s removed, but it is not there", e.ExecutorRemoved.ID)
		}
		r := *e.ExecutorRemoved
		s.gangExecutorGone(e.Time, x, r.Reason)
		x.gone, x.removed = &r, e.Time
		s.live--
	case e.AppEnded != nil:
		end := *e.AppEnded
		s.end, s.ended = &end, e.Time
		s.killRunning(e.Time)
		for _, j := range slices.Clone(s.jobOrder) { // jobEnded may forget some
			if j.state == JobRunning { // no end was told of it
				s.jobEnded(e.Time, &JobEnded{ID: j.ID, State: JobFailed, Reason: "the application ended first: " + end.Diagnostics})
			}
		}
		for _, x := range s.execOrder {
			if x.gone == nil {
				x.gone, x.removed = &ExecutorRemoved{ID: x.ID, Reason: "the application ended"}, e.Time
				s.live--
			}
		}
	}
	return nil
}

func (s *Store) jobSubmitted(now time.Time, js *JobSubmitted) error {
	if s.jobs[js.ID] != nil {
		return fmt.Errorf("job %d submitted twice", js.ID)
	}
	j := &job{JobSubmitted: *js, state: JobRunning, submitted: now}
	j.Stages = append([]StageInfo(nil), js.Stages...)
	for i, info := range j.Stages {
		if s.stages[info.ID] != nil {
			return fmt.Errorf("job %d: stage %d is another job's", js.ID, info.ID)
		}
		st := &stage{info: info, job: j, index: i}
		if info.Gang {
			st.gang = &gangRuns{GangState: GangState{Stage: info.ID}}
		}
		j.stages = append(j.stages, st)
		s.stages[info.ID] = st
	}
	s.jobs[j.ID] = j
	s.jobOrder = append(s.jobOrder, j)
	return nil
}

func (s *Store) jobEnded(now time.Time, je *JobEnded) error {
	j := s.jobs[je.ID]
	if j == nil || j.state != JobRunning {
		return fmt.Errorf("job %d ended, but it is not running", je.ID)
	}
	j.state, j.reason, j.ended = je.State, je.Reason, now
	for _, st := range j.stages {
		if st.firstStarted && !st.allEnded {
			st.ended = now
		}
	}
	s.endedJobs++
	s.forgetOldJobs()
	return nil
}

// forgetOldJobs drops the oldest ended jobs beyond RetainedJobs.
func (s *Store) forgetOldJobs() {
	for s.endedJobs > s.lim.RetainedJobs {
		for i, j := range s.jobOrder {
			if j.state == JobRunning {
				continue
			}
			for _, st := range j.stages {
				delete(s.stages, st.info.ID)
			}
			delete(s.jobs, j.ID)
			s.jobOrder = append(s.jobOrder[:i], s.jobOrder[i+1:]...)
			s.endedJobs--
			break
		}
	}
}

func (s *Store) stageTask(id int64, index int) (*stage, *task, error) {
	st := s.stages[id]
	if st == nil {
		return nil, nil, fmt.Errorf("stage %d is not known", id)
	}
	if index < 0 || index >= st.info.Tasks {
		return nil, nil, fmt.Errorf("stage %d has no task %d (it has %d)", id, index, st.info.Tasks)
	}
	if index >= s.lim.RetainedTasks {
		return st, nil, nil
	}
	if index >= len(st.tasks) {
		st.tasks = growTasks(st.tasks, index+1, min(st.info.Tasks, s.lim.RetainedTasks))
	}
	return st, &st.tasks[index], nil
}

// growTasks lengthens tasks to n, doubling its capacity up to most.
func growTasks(tasks []task, n, most int) []task {
	if n <= cap(tasks) {
		return tasks[:n]
	}
	c := max(n, min(2*cap(tasks), most), 64)
	grown := make([]task, n, min(c, most))
	copy(grown, tasks)
	return grown
}

func (s *Store) taskStarted(now time.Time, ts *TaskStarted) error {
	st, t, err := s.stageTask(ts.Stage, ts.Index)
	if err != nil {
		return err
	}
	x := s.execs[ts.Executor]
	if x != nil {
		x.running++
	}
	st.running++
	if !st.firstStarted {
		st.firstStarted, st.started = true, now
	}
	if t != nil {
		if t.state == tRunning { // a lost attempt nobody reported
			st.running--
			if old := s.executorOf(t); old != nil {
				old.running--
			}
		}
		extra := t.extra
		if t.state != tNone && t.attempt != int32(ts.Attempt) {
			extra = st.keepEarlier(ts.Index, *t, now, s.lim.RetainedAttempts)
		}
		*t = task{attempt: int32(ts.Attempt), state: tRunning, start: now.UnixMilli(), extra: extra}
		if x != nil {
			t.exec = x.slot + 1
		}
		st.setExtra(t, taskExtra{gpus: ts.GPUs, accels: ts.Accels})
	}
	return nil
}

func (s *Store) taskEnded(now time.Time, te *TaskEnded) error {
	st, t, err := s.stageTask(te.Stage, te.Index)
	if err != nil {
		return err
	}
	state, ok := endStates[te.State]
	if !ok {
		return fmt.Errorf("stage %d task %d: no task state %q", te.Stage, te.Index, te.State)
	}
	x := s.execs[te.Executor]
	if t != nil && (t.attempt != int32(te.Attempt) || t.state != tRunning) {
		return nil // an older attempt's end, or told twice
	}
	s.gangRankEnded(now, st, te.Index, t, te)
	if t != nil {
		t.state, t.end, t.exit = state, now.UnixMilli(), int32(te.ExitCode)
		e := st.extraOf(t)
		e.reason = te.Reason
		st.setExtra(t, e)
	}
	st.running = max(st.running-1, 0)
	if x != nil {
		x.running = max(x.running-1, 0)
	}
	switch state {
	case tSucceeded:
		st.succeeded++
		if x != nil {
			x.succeeded++
		}
		if st.succeeded == st.info.Tasks {
			st.allEnded, st.ended = true, now
		}
	case tFailed:
		st.failed++
		if x != nil {
			x.failed++
		}
	case tKilled:
		st.killed++
		if x != nil {
			x.killed++
		}
	}
	return nil
}

// killRunning ends, killed, the attempts still running as the
// application ends: its executors went with it without a word of them.
func (s *Store) killRunning(now time.Time) {
	for _, st := range s.stages {
		if st.running == 0 {
			continue
		}
		for i := range st.tasks {
			if t := &st.tasks[i]; t.state == tRunning {
				t.state, t.end = tKilled, now.UnixMilli()
				e := st.extraOf(t)
				e.reason = "the application ended"
				st.setExtra(t, e)
			}
		}
		st.killed += st.running
		st.running = 0
		if !st.allEnded && st.firstStarted {
			st.ended = now
		}
	}
	for _, x := range s.execOrder {
		x.killed += x.running
		x.running = 0
	}
}

var endStates = map[string]taskState{TaskSucceeded: tSucceeded, TaskFailed: tFailed, TaskKilled: tKilled}
