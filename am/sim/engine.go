package sim

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/fakerm"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/internal/timeline"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Options describe the simulated application and cluster.
type Options struct {
	// Core is the AM's configuration, as deploy/settings.Core builds it
	// for the AM from the same settings: its scheduler, its one executor
	// profile, static executors or dynamic allocation, fine mode, the
	// session's limits, and the allocate calls' pace (Containers.Heartbeat
	// and InitialAllocation, defaults 1s and 200ms: the simulated RM
	// hands out containers only in its answers). Containers must be set;
	// the simulation is a session, its jobs the trace's.
	Core core.Config

	AllocDelay   time.Duration // from request to container
	StartupDelay time.Duration // from container to registered executor
	Capacity     int           // containers the cluster grants at once; 0: no limit
	// Horizon bounds simulated time after the last job's submission
	// (default 7 days): a trace whose jobs cannot finish ends in an error,
	// not an endless run.
	Horizon time.Duration
	// Timeline has the run record its counts over time (Result.Timeline),
	// for a chart; unset, it records nothing.
	Timeline bool
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
	cc := opts.Core.Containers
	if len(opts.Core.Profiles) == 0 || cc == nil {
		return fmt.Errorf("the simulation needs the core's executor profile and its Containers (%d profiles, containers %v)", len(opts.Core.Profiles), cc != nil)
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"allocation delay", opts.AllocDelay}, {"start-up delay", opts.StartupDelay}, {"tick", opts.Core.AllocationTick}, {"horizon", opts.Horizon},
		{"heartbeat", cc.Heartbeat}, {"initial allocation interval", cc.InitialAllocation}} {
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
	// Fairness is what FAIR mode shared between pools (empty under
	// FIFO); Pools what each pool got (pools.go), by name.
	Fairness string       `json:"fairness,omitempty"`
	Pools    []PoolResult `json:"pools"`
	// Timeline is set when Options.Timeline was.
	Timeline *Timeline `json:"-"`
}

// epoch is simulated time zero.
var epoch = time.Unix(0, 0).UTC()

type eventKind int

const (
	evSubmit   eventKind = iota
	evRegister           // an executor finished starting
	evTaskEnd
	evWake // the core's next needed call
)

type event struct {
	at      time.Time
	kind    eventKind
	job     int                 // evSubmit: index in the trace
	box     *box                // evRegister, evTaskEnd
	attempt scheduler.AttemptID // evTaskEnd
}

// box is a container from grant to its end, and its executor.
type box struct {
	id        string
	granted   time.Time
	ready     bool
	running   int
	idleFrom  time.Time
	ended     bool
	idleTotal time.Duration
	profile   scheduler.Profile // what its executor offers
}

// run is the simulated RM, NodeManagers and executors around the AM's
// own core: the core decides as it does in the product, and the run
// carries out its actions on simulated time.
type run struct {
	opts Options
	// exec is every executor's shape; heartbeat the allocate interval
	// once nothing is owed.
	exec      scheduler.Profile
	heartbeat time.Duration
	jobs      []TraceJob
	end       time.Time // the last submission plus the horizon
	core      *core.Core
	now       time.Time
	// queue holds what happens next; wake is the core's Next already in
	// it.
	queue timeline.Queue[*event]
	wake  time.Time
	// quiet says the last allocate changed nothing and nothing is owed
	// that the RM could grant before another event (sleep).
	quiet bool

	boxes map[string]*box
	order []*box // every container ever granted, in grant order
	// rm is the simulated RM: the outstanding requests, the containers
	// held, the ended ones the next allocate reports.
	rm fakerm.RM

	durations map[scheduler.StageID]time.Duration
	jobTimes  []float64
	remaining int
	res       Result
	// busy counts executors running a task; rec samples the counts over
	// time, nil unless Options.Timeline.
	busy int
	rec  *recorder
	// pools is each pool's usage and share over time.
	pools *pools
}

// Run simulates jobs under opts.
func Run(jobs []TraceJob, opts Options) (Result, error) {
	if err := check(jobs, opts); err != nil {
		return Result{}, err
	}
	if opts.Horizon <= 0 {
		opts.Horizon = 7 * 24 * time.Hour
	}
	cfg := opts.Core
	cc := *cfg.Containers
	if cc.Heartbeat <= 0 {
		cc.Heartbeat = time.Second
	}
	if cc.InitialAllocation <= 0 {
		cc.InitialAllocation = 200 * time.Millisecond
	}
	exec := cfg.Profiles[0]
	if cfg.OneTaskPerExecutor {
		var err error
		if exec, err = fineProfile(jobs, exec); err != nil {
			return Result{}, err
		}
		cfg.Profiles = []scheduler.Profile{exec}
	}
	if cc.MaxGPUsPerNode == 0 {
		cc.MaxGPUsPerNode = exec.GPUs // a node per executor
	}
	if cc.MaxAccelsPerNode == nil {
		cc.MaxAccelsPerNode = map[string]int{}
		for _, x := range exec.Accels.List() {
			cc.MaxAccelsPerNode[x.Name] = x.Amount
		}
	}
	cfg.Containers, cfg.Session = &cc, true
	policy := "static"
	if cfg.Allocation != nil {
		policy = cfg.Allocation.Policy.String()
	}
	c, err := core.New(cfg)
	if err != nil {
		return Result{}, err
	}
	r := &run{opts: opts, exec: exec, heartbeat: cc.Heartbeat, jobs: jobs, core: c, now: epoch, boxes: map[string]*box{},
		durations: map[scheduler.StageID]time.Duration{}, remaining: len(jobs), pools: newPools()}
	r.rm.Delay, r.rm.Capacity = opts.AllocDelay, opts.Capacity
	r.res.Policy = policy
	if cfg.Scheduler.Mode == scheduler.FAIR {
		r.res.Fairness = cfg.Scheduler.Fairness.String()
	}
	if opts.Timeline {
		r.rec = newRecorder()
	}
	r.end = epoch.Add(opts.Horizon)
	for i, j := range jobs {
		at := epoch.Add(seconds(j.SubmitS))
		r.push(&event{at: at, kind: evSubmit, job: i})
		if last := at.Add(opts.Horizon); last.After(r.end) {
			r.end = last
		}
	}
	if err := r.ready(); err != nil {
		return Result{}, err
	}
	if err := r.loop(); err != nil {
		return Result{}, err
	}
	return r.result(), nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (r *run) push(e *event) { r.queue.Push(e.at, e) }

func (r *run) loop() error {
	for r.remaining > 0 {
		if r.queue.Len() == 0 {
			return fmt.Errorf("simulation stalled at %.1fs with %d jobs unfinished: no executor can run their tasks", r.now.Sub(epoch).Seconds(), r.remaining)
		}
		_, e := r.queue.Pop()
		r.pools.elapse(e.at.Sub(r.now))
		r.now = e.at
		if r.now.After(r.end) {
			return fmt.Errorf("simulation passed its horizon, %v after the last submission, with %d of %d jobs unfinished (can their tasks fit an executor of %d cores and %d GPUs?)",
				r.opts.Horizon, r.remaining, len(r.jobs), r.exec.Cores, r.exec.GPUs)
		}
		if err := r.handle(e); err != nil {
			return err
		}
		// Decide once per instant, after every event at this time.
		if next, ok := r.queue.Next(); ok && next.Equal(r.now) {
			continue
		}
		if err := r.ready(); err != nil {
			return err
		}
	}
	return nil
}

// handle feeds one event to the core.
func (r *run) handle(e *event) error {
	switch e.kind {
	case evSubmit:
		return r.submit(e.job)
	case evRegister:
		b := e.box
		if b.ended {
			return nil
		}
		b.ready, b.idleFrom = true, r.now
		r.pools.cores += b.profile.Cores
		r.pools.gpus += b.profile.GPUs
		return r.core.Register(r.now, core.Registration{Executor: scheduler.ExecutorID(b.id), Host: "node-" + b.id, Cores: b.profile.Cores,
			GPUs: indices(b.profile.GPUs), Accels: simAccels(b.profile.Accels)})
	case evTaskEnd:
		b := e.box
		if b.running--; b.running == 0 {
			b.idleFrom = r.now
			r.busy--
		}
		r.pools.ended(e.attempt.Task.Stage)
		r.core.Statuses(r.now, scheduler.ExecutorID(b.id), []core.TaskStatus{{Attempt: e.attempt, State: core.TaskSucceeded}})
	case evWake:
	}
	return nil
}

func (r *run) submit(i int) error {
	tj := r.jobs[i]
	job := &jobspec.Job{Name: tj.Name, Pool: tj.Pool, Source: "trace"}
	for _, row := range tj.Stages {
		// Built-in stages: the simulated executors run nothing, and a
		// built-in needs no command.
		job.Stages = append(job.Stages, jobspec.Stage{Name: row.Stage, After: row.After, Tasks: row.Tasks, CPUs: row.CPUs, GPUs: row.GPUs, Builtin: "sim", Line: row.Line})
	}
	id, err := r.core.Submit(r.now, job, nil)
	if err != nil {
		return fmt.Errorf("line %d: %w", tj.Stages[0].Line, err)
	}
	stages := r.core.JobStages(id)
	for k, sid := range stages {
		r.durations[sid] = seconds(tj.Stages[k].TaskS)
	}
	r.pools.submitted(tj.Pool, id, stages, tj.Stages)
	return nil
}

// ready has the core decide at now and carries out its actions; an
// allocate is answered at once, and the core decides again.
func (r *run) ready() error {
	for {
		rd := r.core.Ready(r.now)
		for _, l := range rd.Launches {
			b := r.boxes[string(l.Executor)]
			if b.running == 0 {
				b.idleTotal += r.now.Sub(b.idleFrom)
				r.busy++
			}
			b.running++
			r.res.Tasks++
			r.pools.started(l.Attempt.Task.Stage)
			r.push(&event{at: r.now.Add(r.durations[l.Attempt.Task.Stage]), kind: evTaskEnd, attempt: l.Attempt, box: b})
		}
		if len(rd.Kills) > 0 {
			return fmt.Errorf("unexpected kills in a simulation without failures: %v", rd.Kills)
		}
		for _, d := range rd.Disconnects {
			b := r.boxes[string(d.Executor)]
			r.close(b)
			r.core.ConnectionEnded(r.now, d.Executor, "shut down")
			r.rm.End(core.Completion{Container: b.id})
		}
		for _, s := range rd.StartContainers {
			r.boxes[s.Container].profile = s.Profile // a stage shape's, or the default's
			r.push(&event{at: r.now.Add(r.opts.StartupDelay), kind: evRegister, box: r.boxes[s.Container]})
		}
		for _, f := range rd.Finished {
			r.remaining--
			r.res.Jobs++
			if !f.Succeeded {
				r.res.FailedJobs++
			}
			r.jobTimes = append(r.jobTimes, r.now.Sub(f.Started).Seconds())
			r.pools.jobEnded(f.ID, r.now.Sub(f.Started))
		}
		if rd.Unregister != nil {
			return fmt.Errorf("the application ended at %.1fs: %s", r.now.Sub(epoch).Seconds(), rd.Unregister.Diagnostics)
		}
		if rd.Allocate == nil {
			r.sample()
			r.sleep(rd.Next)
			return nil
		}
		res, err := r.answer(rd.Allocate)
		if err != nil {
			return err
		}
		r.quiet = len(res.Allocated)+len(res.Completed)+len(rd.Allocate.Release)+len(rd.Allocate.Exclude)+len(rd.Allocate.Include) == 0 &&
			(r.rm.Outstanding() == 0 || r.opts.Capacity > 0 && r.rm.Held() >= r.opts.Capacity)
		r.core.Allocated(r.now, res)
	}
}

// sleep has the core called again at next. Heartbeats that cannot change
// anything are not simulated one by one: after a quiet allocate (nothing
// given, nothing given back, no grant to come before an event) whose next
// is a plain heartbeat interval away, the run wakes at the last heartbeat
// before its next event instead, as the real loop would, on the same
// phase. Without this a static application idle for days would take a
// call a simulated second.
func (r *run) sleep(next time.Time) {
	if next.IsZero() {
		return
	}
	if first, ok := r.queue.Next(); r.quiet && next.Sub(r.now) == r.heartbeat && ok {
		if gap := first.Sub(next); gap > 0 {
			next = next.Add(gap / r.heartbeat * r.heartbeat)
		}
	}
	r.quiet = false
	if !next.Equal(r.wake) {
		r.wake = next
		r.push(&event{at: next, kind: evWake})
	}
}

// answer is the simulated RM's reply to an allocate (fakerm: asks are
// absolute per allocation request id, each request granted AllocDelay
// after it was asked for, while the cluster holds fewer than Capacity).
func (r *run) answer(req *core.AllocateRequest) (core.AllocateResult, error) {
	var res core.AllocateResult
	for _, id := range req.Release {
		r.close(r.boxes[id])
	}
	r.rm.Release(req.Release)
	r.rm.Update(r.now, req.Asks)
	if held, asked := r.rm.Held(), r.rm.Outstanding(); asked > MaxExecutors-held {
		return res, fmt.Errorf("at %.1fs the simulation would hold or ask for %d containers, more than the %d it models (lower spindle.dynamicAllocation.maxExecutors)", r.now.Sub(epoch).Seconds(), held+asked, MaxExecutors)
	}
	res.Allocated = r.rm.Grant(r.now)
	for _, c := range res.Allocated {
		b := &box{id: c.ID, granted: r.now}
		r.boxes[b.id] = b
		r.order = append(r.order, b)
	}
	r.res.PeakExecutors = max(r.res.PeakExecutors, r.rm.Held())
	res.Completed = r.rm.Completed()
	return res, nil
}

// close ends a container's accounting at now.
func (r *run) close(b *box) {
	if b == nil || b.ended {
		return
	}
	b.ended = true
	if b.ready {
		r.pools.cores -= b.profile.Cores
		r.pools.gpus -= b.profile.GPUs
	}
	r.res.ExecutorSeconds += r.now.Sub(b.granted).Seconds()
	if b.ready && b.running == 0 {
		b.idleTotal += r.now.Sub(b.idleFrom)
	}
	r.res.IdleExecutorSeconds += b.idleTotal.Seconds()
}

func (r *run) result() Result {
	// The run ends with the last job: what is still held stops counting.
	for _, b := range r.order {
		r.close(b)
	}
	res := r.res
	if r.rec != nil {
		res.Timeline = r.rec.timeline()
	}
	res.ContainerRequests = r.rm.Requested()
	res.Pools = r.pools.results()
	// Sums of many float seconds carry rounding noise: keep milliseconds.
	res.ExecutorSeconds = math.Round(res.ExecutorSeconds*1000) / 1000
	res.IdleExecutorSeconds = math.Round(res.IdleExecutorSeconds*1000) / 1000
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

// indices are n addresses, "0" to n-1: a simulated executor's devices.
func indices(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}

// simAccels are the addresses of each accelerator a simulated executor
// of a profile with amounts a has, so that tasks asking for them
// (spindle.task.resource.NAME.amount) run as on a real one.
func simAccels(a scheduler.Accelerators) []scheduler.Assigned {
	var out []scheduler.Assigned
	for _, x := range a.List() {
		out = append(out, scheduler.Assigned{Name: x.Name, Addresses: indices(x.Amount)})
	}
	return out
}
