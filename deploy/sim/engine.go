package sim

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Options describe the simulated application and cluster.
type Options struct {
	Scheduler scheduler.Config
	// Executor is the shape of every executor (profile 0).
	Executor scheduler.Profile
	// Dynamic runs dynamic allocation with Allocation; otherwise
	// StaticExecutors are asked for at the start and kept.
	Dynamic         bool
	Allocation      dynalloc.Config
	StaticExecutors int

	AllocDelay   time.Duration // from request to container
	StartupDelay time.Duration // from container to registered executor
	Capacity     int           // containers the cluster grants at once; 0: no limit
	Tick         time.Duration // dynamic allocation's interval (Spark's 100ms)
	// Horizon bounds simulated time after the last job's submission
	// (default 7 days): a trace whose jobs cannot finish ends in an error,
	// not an endless run.
	Horizon time.Duration
}

// MaxExecutors bounds the containers a simulation holds and asks for at
// once (spindle.executor.instances, or dynamic allocation's target).
const MaxExecutors = 10_000

// MaxDuration bounds the horizon and every delay (100 years). With the
// trace's own bounds (submit_s, task_s) it keeps any simulated instant, the
// horizon plus one more delay, inside time.Duration's 292 years: no sum of
// times can wrap.
const MaxDuration = 100 * 365 * 24 * time.Hour

// check refuses options and jobs whose times could not be simulated.
func check(jobs []TraceJob, opts Options) error {
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"allocation delay", opts.AllocDelay}, {"start-up delay", opts.StartupDelay}, {"tick", opts.Tick}, {"horizon", opts.Horizon}} {
		if d.d < 0 || d.d > MaxDuration {
			return fmt.Errorf("%s %v: want 0 to %v", d.name, d.d, MaxDuration)
		}
	}
	for _, j := range jobs {
		if !(j.SubmitS >= 0 && j.SubmitS <= maxSubmitS) {
			return fmt.Errorf("job %q: submitted at %v s: want 0 to %d", j.Name, j.SubmitS, maxSubmitS)
		}
		for _, st := range j.Stages {
			if !(st.TaskS > 0 && st.TaskS <= maxTaskS) {
				return fmt.Errorf("job %q stage %q: tasks of %v s: want more than 0 and at most %d", j.Name, st.Stage, st.TaskS, maxTaskS)
			}
		}
	}
	return nil
}

// Result is what a run measured. Times are simulated seconds.
type Result struct {
	Policy              string  `json:"policy"`
	MakespanS           float64 `json:"makespan_s"`
	ExecutorSeconds     float64 `json:"executor_seconds"`
	IdleExecutorSeconds float64 `json:"idle_executor_seconds"`
	PeakExecutors       int     `json:"peak_executors"`
	ContainerRequests   int     `json:"container_requests"`
	MeanJobS            float64 `json:"mean_job_s"`
	P95JobS             float64 `json:"p95_job_s"`
	Jobs                int     `json:"jobs"`
	FailedJobs          int     `json:"failed_jobs"`
	Tasks               int     `json:"tasks"`
}

// epoch is simulated time zero.
var epoch = time.Unix(0, 0).UTC()

type eventKind int

const (
	evSubmit eventKind = iota
	evGrant            // a requested container arrives
	evReady            // an executor finished starting
	evTaskEnd
	evTick
	evWakeup
)

type event struct {
	at      time.Time
	seq     int
	kind    eventKind
	job     int                  // evSubmit: index in the trace
	exec    *simExecutor         // evReady
	attempt scheduler.AttemptID  // evTaskEnd
	on      scheduler.ExecutorID // evTaskEnd
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// simExecutor is a container from grant to release.
type simExecutor struct {
	id        scheduler.ExecutorID
	granted   time.Time
	ready     bool
	readyAt   time.Time
	running   int
	idleFrom  time.Time
	released  bool
	idleTotal time.Duration
}

type run struct {
	opts  Options
	jobs  []TraceJob
	end   time.Time // the last submission plus the horizon
	sched *scheduler.Scheduler
	alloc *dynalloc.Manager
	now   time.Time
	queue eventQueue
	seq   int

	execs    map[scheduler.ExecutorID]*simExecutor
	order    []*simExecutor // every executor ever granted, in grant order
	pending  int            // requested, not yet granted
	starting int
	live     int // registered, not released
	nextExec int

	durations map[scheduler.StageID]time.Duration
	submitted map[scheduler.JobID]time.Time
	jobTimes  []float64
	remaining int
	wakeup    time.Time
	res       Result
}

// Run simulates jobs under opts.
func Run(jobs []TraceJob, opts Options) (Result, error) {
	if err := check(jobs, opts); err != nil {
		return Result{}, err
	}
	if opts.Tick <= 0 {
		opts.Tick = 100 * time.Millisecond
	}
	if opts.Horizon <= 0 {
		opts.Horizon = 7 * 24 * time.Hour
	}
	sched, err := scheduler.New(opts.Scheduler)
	if err != nil {
		return Result{}, err
	}
	if err := sched.AddProfile(opts.Executor); err != nil {
		return Result{}, err
	}
	r := &run{opts: opts, jobs: jobs, sched: sched, now: epoch, execs: map[scheduler.ExecutorID]*simExecutor{},
		durations: map[scheduler.StageID]time.Duration{}, submitted: map[scheduler.JobID]time.Time{}, remaining: len(jobs)}
	r.res.Policy = "static"
	if opts.Dynamic {
		if r.alloc, err = dynalloc.New(opts.Allocation); err != nil {
			return Result{}, err
		}
		r.res.Policy = opts.Allocation.Policy.String()
		r.push(&event{at: epoch, kind: evTick})
		err = r.request(r.alloc.Target(opts.Executor.ID))
	} else {
		err = r.request(opts.StaticExecutors)
	}
	if err != nil {
		return Result{}, err
	}
	r.end = epoch.Add(opts.Horizon)
	for i, j := range jobs {
		at := epoch.Add(seconds(j.SubmitS))
		r.push(&event{at: at, kind: evSubmit, job: i})
		if last := at.Add(opts.Horizon); last.After(r.end) {
			r.end = last
		}
	}
	if err := r.loop(); err != nil {
		return Result{}, err
	}
	return r.result(), nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (r *run) push(e *event) {
	e.seq = r.seq
	r.seq++
	heap.Push(&r.queue, e)
}

func (r *run) loop() error {
	for r.remaining > 0 {
		if len(r.queue) == 0 {
			return fmt.Errorf("simulation stalled at %.1fs with %d jobs unfinished: no executor can run their tasks", r.now.Sub(epoch).Seconds(), r.remaining)
		}
		e := heap.Pop(&r.queue).(*event)
		r.now = e.at
		if r.now.After(r.end) {
			return fmt.Errorf("simulation passed its horizon, %v after the last submission, with %d of %d jobs unfinished (can their tasks fit an executor of %d cores and %d GPUs?)",
				r.opts.Horizon, r.remaining, len(r.jobs), r.opts.Executor.Cores, r.opts.Executor.GPUs)
		}
		if err := r.handle(e); err != nil {
			return err
		}
		// Decide once per instant, after every event at this time.
		if len(r.queue) > 0 && r.queue[0].at.Equal(r.now) {
			continue
		}
		if err := r.ready(); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) handle(e *event) error {
	switch e.kind {
	case evSubmit:
		return r.submit(e.job)
	case evGrant:
		r.grant()
	case evReady:
		x := e.exec
		if x.released {
			return nil
		}
		x.ready, x.readyAt, x.idleFrom = true, r.now, r.now
		r.starting--
		r.live++
		gpus := make([]string, r.opts.Executor.GPUs)
		for i := range gpus {
			gpus[i] = strconv.Itoa(i)
		}
		return r.sched.AddExecutor(r.now, scheduler.ExecutorSpec{ID: x.id, Host: fmt.Sprintf("node%04d", r.nextExec%97), Profile: r.opts.Executor.ID, Cores: r.opts.Executor.Cores, GPUs: gpus})
	case evTaskEnd:
		r.taskEnded(e.on)
		if err := r.sched.TaskFinished(r.now, e.attempt, scheduler.TaskResult{Outcome: scheduler.Succeeded}); err != nil {
			return err
		}
	case evTick:
		if err := r.tick(); err != nil {
			return err
		}
		r.push(&event{at: r.now.Add(r.opts.Tick), kind: evTick})
	case evWakeup:
	}
	return nil
}

func (r *run) submit(i int) error {
	tj := r.jobs[i]
	spec := scheduler.JobSpec{Name: tj.Name, Pool: tj.Pool}
	for _, row := range tj.Stages {
		req := scheduler.TaskRequest{CPUs: row.CPUs}
		if row.GPUs > 0 {
			g, err := scheduler.ParseGPURequest(fmt.Sprintf("line %d: gpus", row.Line), row.GPUs)
			if err != nil {
				return err
			}
			req.GPU = g
		}
		spec.Stages = append(spec.Stages, scheduler.StageSpec{Name: row.Stage, After: row.After, Tasks: row.Tasks, Profile: r.opts.Executor.ID, Request: req})
	}
	id, err := r.sched.SubmitJob(r.now, spec)
	if err != nil {
		return fmt.Errorf("line %d: %w", tj.Stages[0].Line, err)
	}
	for k, sid := range r.sched.JobStages(id) {
		r.durations[sid] = seconds(tj.Stages[k].TaskS)
	}
	r.submitted[id] = r.now
	return nil
}

// ready carries out the scheduler's decisions at now.
func (r *run) ready() error {
	rd := r.sched.Ready(r.now)
	for _, l := range rd.Launches {
		x := r.execs[l.Executor]
		if x.running == 0 {
			x.idleTotal += r.now.Sub(x.idleFrom)
		}
		x.running++
		r.res.Tasks++
		r.push(&event{at: r.now.Add(r.durations[l.Attempt.Task.Stage]), kind: evTaskEnd, attempt: l.Attempt, on: l.Executor})
	}
	for _, f := range rd.Finished {
		r.remaining--
		r.res.Jobs++
		if !f.Succeeded {
			r.res.FailedJobs++
		}
		r.jobTimes = append(r.jobTimes, r.now.Sub(r.submitted[f.Job]).Seconds())
	}
	if len(rd.Kills) > 0 {
		return fmt.Errorf("unexpected kills in a simulation without failures: %v", rd.Kills)
	}
	if w, ok := r.sched.Wakeup(r.now); ok && !w.Equal(r.wakeup) {
		r.wakeup = w
		r.push(&event{at: w, kind: evWakeup})
	}
	return nil
}

// taskEnded keeps the executor's idle accounting.
func (r *run) taskEnded(id scheduler.ExecutorID) {
	x := r.execs[id]
	if x.running--; x.running == 0 {
		x.idleFrom = r.now
	}
}

// tick runs dynamic allocation and carries out its decision.
func (r *run) tick() error {
	var execs []dynalloc.Executor
	for _, st := range r.sched.Executors() {
		execs = append(execs, dynalloc.Executor{ID: st.ID, Running: st.Running, Idle: st.IdleSince})
	}
	p := r.opts.Executor.ID
	for _, d := range r.alloc.Update(r.now, []dynalloc.Profile{{ID: p, Demand: r.sched.Demand(r.now, p), Executors: execs}}) {
		for _, id := range d.Release {
			r.release(id)
		}
		held := r.live + r.starting + r.pending
		switch {
		case d.Total > held:
			if err := r.request(d.Total - held); err != nil {
				return err
			}
		case d.Total < held:
			// Cancel requests not yet granted first; executors stop only
			// when idle (Release).
			r.pending -= min(r.pending, held-d.Total)
		}
	}
	return nil
}

// request asks the cluster for n more containers: each is an event, so
// what is held and asked for at once stays within MaxExecutors.
func (r *run) request(n int) error {
	if held := r.live + r.starting + r.pending; n > MaxExecutors-held {
		return fmt.Errorf("at %.1fs the simulation would hold or ask for %d containers, more than the %d it models (lower spindle.dynamicAllocation.maxExecutors)", r.now.Sub(epoch).Seconds(), held+n, MaxExecutors)
	}
	for i := 0; i < n; i++ {
		r.pending++
		r.res.ContainerRequests++
		r.push(&event{at: r.now.Add(r.opts.AllocDelay), kind: evGrant})
	}
	return nil
}

// grant gives a container to the oldest request, when any is left (it may
// have been cancelled) and the cluster has room.
func (r *run) grant() {
	if r.pending == 0 {
		return
	}
	if r.opts.Capacity > 0 && r.live+r.starting >= r.opts.Capacity {
		// Full: ask again later, as an RM keeps the request outstanding.
		r.push(&event{at: r.now.Add(r.opts.AllocDelay), kind: evGrant})
		return
	}
	r.pending--
	r.starting++
	x := &simExecutor{id: scheduler.ExecutorID(fmt.Sprintf("exec-%05d", r.nextExec)), granted: r.now}
	r.nextExec++
	r.execs[x.id] = x
	r.order = append(r.order, x)
	r.res.PeakExecutors = max(r.res.PeakExecutors, r.live+r.starting)
	r.push(&event{at: r.now.Add(r.opts.StartupDelay), kind: evReady, exec: x})
}

func (r *run) release(id scheduler.ExecutorID) {
	x := r.execs[id]
	if x == nil || x.released {
		return
	}
	r.close(x)
	r.sched.RemoveExecutor(r.now, id, scheduler.ExecutorLoss{Reason: "released by dynamic allocation"})
}

// close ends an executor's accounting at now.
func (r *run) close(x *simExecutor) {
	x.released = true
	if x.ready {
		r.live--
	}
	r.res.ExecutorSeconds += r.now.Sub(x.granted).Seconds()
	if x.ready && x.running == 0 {
		x.idleTotal += r.now.Sub(x.idleFrom)
	}
	r.res.IdleExecutorSeconds += x.idleTotal.Seconds()
}

func (r *run) result() Result {
	// The run ends with the last job: what is still held stops counting.
	for _, x := range r.order {
		if !x.released {
			if !x.ready {
				r.starting--
			}
			r.close(x)
		}
	}
	res := r.res
	res.MakespanS = r.now.Sub(epoch).Seconds()
	if n := len(r.jobTimes); n > 0 {
		sum := 0.0
		for _, t := range r.jobTimes {
			sum += t
		}
		res.MeanJobS = sum / float64(n)
		sorted := append([]float64(nil), r.jobTimes...)
		sort.Float64s(sorted)
		res.P95JobS = sorted[min(n-1, (95*n+99)/100-1)]
	}
	return res
}
