package history

import (
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// App is the application at a glance.
func (s *Store) App() AppView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v := AppView{AppStarted: s.app, Started: s.started, State: JobRunning, Jobs: map[string]int{}, Executors: s.live}
	if s.end != nil {
		v.Ended, v.Diagnostics = timePtr(s.ended), s.end.Diagnostics
		v.State = JobFailed
		if s.end.Succeeded {
			v.State = JobSucceeded
		}
	}
	for _, j := range s.jobOrder {
		v.Jobs[j.state]++
		v.Tasks.add(j.counts())
	}
	return v
}

// Jobs lists the jobs kept, newest first.
func (s *Store) Jobs(now time.Time) []JobView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]JobView, 0, len(s.jobOrder))
	for i := len(s.jobOrder) - 1; i >= 0; i-- {
		out = append(out, s.jobOrder[i].view(now, s.lim, false))
	}
	return out
}

// Job is one job with its stages.
func (s *Store) Job(now time.Time, id int64) (JobView, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	j := s.jobs[id]
	if j == nil {
		return JobView{}, false
	}
	return j.view(now, s.lim, true), true
}

// Stage is one stage.
func (s *Store) Stage(now time.Time, id int64) (StageView, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stages[id]
	if st == nil {
		return StageView{}, false
	}
	return st.view(now, s.lim), true
}

// Tasks is a page of a stage's listed tasks as q asks: those in its
// state, in its order (task_order.go), from its offset, at most its
// length.
func (s *Store) Tasks(now time.Time, id int64, q TaskQuery) (TaskPage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := s.stages[id]
	if st == nil {
		return TaskPage{}, false
	}
	p := TaskPage{Stage: id, Offset: q.Offset, Tasks: []TaskView{}}
	nowMs := now.UnixMilli()
	if q.Sort != "" && q.Sort != SortIndex || q.Desc {
		var page []int
		page, p.Total = s.orderedPage(st, q, nowMs)
		for _, i := range page {
			p.Tasks = append(p.Tasks, s.listedTask(st, i, nowMs))
		}
		return p, true
	}
	for i := range st.listed(s.lim) {
		if q.State != "" && taskStates[st.stateOf(i)] != q.State {
			continue
		}
		if p.Total >= q.Offset && len(p.Tasks) < q.Length {
			p.Tasks = append(p.Tasks, s.listedTask(st, i, nowMs))
		}
		p.Total++
	}
	return p, true
}

// stateOf is listed task i's state.
func (st *stage) stateOf(i int) taskState {
	if i < len(st.tasks) {
		return st.tasks[i].state
	}
	return tNone
}

// listedTask is listed task i's row: its latest attempt, and where its
// earlier ones wrote.
func (s *Store) listedTask(st *stage, i int, nowMs int64) TaskView {
	t := task{}
	if i < len(st.tasks) {
		t = st.tasks[i]
	}
	v := s.taskView(st, &t, i, nowMs)
	if t.state != tNone {
		v.File = tasklog.Name(st.job.ID, st.index, i, int(t.attempt))
		v.Earlier = s.earlierOf(st, i)
	}
	return v
}

// Pools lists the pools configured and those running jobs name, with
// their running jobs' tasks.
func (s *Store) Pools() []PoolView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]PoolView, 0, len(s.pools))
	at := map[string]int{}
	for _, p := range s.pools {
		at[p.Name] = len(out)
		out = append(out, PoolView{PoolInfo: p})
	}
	for _, j := range s.jobOrder {
		if j.state != JobRunning {
			continue
		}
		i, ok := at[j.Pool]
		if !ok {
			i = len(out)
			at[j.Pool] = i
			out = append(out, PoolView{PoolInfo: PoolInfo{Name: j.Pool, Mode: "FIFO", Weight: 1}})
		}
		c := j.counts()
		out[i].Jobs++
		out[i].Running += c.Running
		out[i].Waiting += c.Waiting
	}
	return out
}

// Executors lists every executor the application had, in order of
// registration.
func (s *Store) Executors(now time.Time) []ExecutorView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ExecutorView, 0, len(s.execOrder))
	for _, x := range s.execOrder {
		v := ExecutorView{ExecutorAdded: x.ExecutorAdded, Added: x.added, State: "active",
			Running: x.running, Succeeded: x.succeeded, Failed: x.failed, Killed: x.killed}
		if x.gone != nil {
			v.Removed, v.Reason, v.TaskFault = timePtr(x.removed), x.gone.Reason, x.gone.TaskFault
			v.State = "removed"
			if x.gone.Lost {
				v.State = "lost"
			}
		}
		out = append(out, v)
	}
	return out
}

// Timeline is the timeline's points, oldest first, and the point now
// at the end while the application runs: a chart reaches the present.
func (s *Store) Timeline(now time.Time) []Point {
	s.mu.RLock()
	defer s.mu.RUnlock()
	points := slices.Clone(s.timeline.points)
	if n := len(points); s.end == nil && n > 0 && now.After(points[n-1].Time) {
		points = append(points, s.point(now))
	}
	return points
}

func (j *job) counts() Counts {
	var c Counts
	for _, st := range j.stages {
		c.add(st.counts(j.state == JobRunning))
	}
	return c
}

func (j *job) view(now time.Time, lim Limits, stages bool) JobView {
	v := JobView{ID: j.ID, Name: j.Name, Pool: j.Pool, State: j.state, Reason: j.reason, Submitted: j.submitted, Counts: j.counts()}
	end := now
	if j.state != JobRunning {
		v.Ended, end = timePtr(j.ended), j.ended
	}
	v.DurationS = end.Sub(j.submitted).Seconds()
	if stages {
		for _, st := range j.stages {
			v.Stages = append(v.Stages, st.view(now, lim))
		}
	}
	return v
}

func (st *stage) counts(running bool) Counts {
	c := Counts{Tasks: st.info.Tasks, Succeeded: st.succeeded, Running: st.running, FailedAttempts: st.failed, KilledAttempts: st.killed}
	if running {
		c.Waiting = max(c.Tasks-c.Succeeded-c.Running, 0)
	}
	return c
}

func (st *stage) listed(lim Limits) int { return min(st.info.Tasks, lim.RetainedTasks) }

func (st *stage) view(now time.Time, lim Limits) StageView {
	running := st.job.state == JobRunning
	v := StageView{ID: st.info.ID, Name: st.info.Name, Parents: slices.Clone(st.info.Parents), GPUs: st.info.GPUs, Cores: st.info.Cores,
		Gang: st.info.Gang, Job: st.job.ID, Counts: st.counts(running), Listed: st.listed(lim)}
	switch {
	case st.allEnded:
		v.State = JobSucceeded
	case !running:
		v.State = st.job.state
	case st.firstStarted:
		v.State = JobRunning
	default:
		v.State = "waiting"
	}
	if st.firstStarted {
		v.Started = timePtr(st.started)
		end := now
		if st.allEnded || !running {
			end = st.ended
			v.Ended = timePtr(end)
		}
		v.DurationS = end.Sub(st.started).Seconds()
	}
	return v
}

func (s *Store) taskView(st *stage, t *task, index int, nowMs int64) TaskView {
	v := TaskView{Index: index, State: taskStates[t.state]}
	if t.state == tNone {
		return v
	}
	extra := st.extraOf(t)
	v.Attempts, v.GPUs, v.Accels, v.Reason = int(t.attempt)+1, slices.Clone(extra.gpus), cloneResources(extra.accels), extra.reason
	if x := s.executorOf(t); x != nil {
		v.Executor, v.Host, v.LogURL = x.ID, x.Host, x.LogURL
	}
	started := time.UnixMilli(t.start)
	v.Started = &started
	end := nowMs
	if t.state != tRunning {
		end = t.end
	}
	v.DurationS = float64(end-t.start) / 1000
	v.ExitCode = int(t.exit)
	return v
}

func (c *Counts) add(o Counts) {
	c.Tasks += o.Tasks
	c.Succeeded += o.Succeeded
	c.Running += o.Running
	c.Waiting += o.Waiting
	c.FailedAttempts += o.FailedAttempts
	c.KilledAttempts += o.KilledAttempts
}

// cloneResources copies rs for a view; nil for none.
func cloneResources(rs []Resource) []Resource {
	if rs == nil {
		return nil
	}
	out := make([]Resource, len(rs))
	for i, r := range rs {
		out[i] = Resource{Name: r.Name, Addresses: slices.Clone(r.Addresses)}
	}
	return out
}

func timePtr(t time.Time) *time.Time { return &t }
