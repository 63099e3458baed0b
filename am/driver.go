package am

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Config configures a driver.
type Config struct {
	AppID     string
	Scheduler scheduler.Config
	// Profiles are the shapes of the executors; the first is the default.
	Profiles []scheduler.Profile
	// StageProfiles gives each of the job's stages, in order, the profile
	// of the executors its tasks run on (nil: the first profile for all).
	StageProfiles []scheduler.ProfileID
	// ExecutorProfile says which profile a registering executor has (nil:
	// the first); false refuses it.
	ExecutorProfile func(scheduler.ExecutorID) (scheduler.ProfileID, bool)
	// Secret authenticates executors; it is never logged or sent.
	Secret []byte
	// Listen is where executors connect, e.g. "127.0.0.1:0".
	Listen string
	// HeartbeatTimeout declares an executor lost when it has sent nothing
	// for this long (default 30s).
	HeartbeatTimeout time.Duration
	// LossReasonWait, when positive, is how long an executor whose
	// connection ended waits, taking no new tasks, for ExecutorEnded to say
	// how its process ended (on YARN the container's exit status arrives a
	// heartbeat or two later) before it is declared lost, blamelessly.
	// Zero declares it lost at once.
	LossReasonWait time.Duration
	// Progress, when set, is called from the event loop after each round of
	// decisions; it must return quickly.
	Progress func(Progress)
	// Allocation, when set, runs dynamic allocation in the event loop every
	// AllocationTick (default 100ms, Spark's): Target is told the total
	// number of executors of each profile wanted, and the idle executors it
	// picks are shut down.
	Allocation     *dynalloc.Manager
	AllocationTick time.Duration
	Target         func(p scheduler.ProfileID, total int)
	// OneTaskPerExecutor retires each executor as soon as its first task
	// ends (fine-grained mode: a container per task).
	OneTaskPerExecutor bool
}

// Progress is the state of the running job, for a progress bar.
type Progress struct {
	Job       string
	Tasks     int
	Succeeded int
	Running   int
	Failed    int // failed attempts so far
	Executors int
	Elapsed   time.Duration
}

// Summary is how a job ended.
type Summary struct {
	Job       string
	Succeeded bool
	Reason    string
	Tasks     int
	Attempts  int
	Failures  int // failed attempts, counted or not
	Retries   int // attempts after a task's first
	Duration  time.Duration
	Executors []ExecutorSummary
	// Rejected counts connections refused: failing authentication, or
	// over the executor listener's bounds on handshakes in progress.
	Rejected int
	// OutputCut lists the task output files whose head was cut to keep
	// spindle.task.log.maxBytes, as executor/file name.
	OutputCut []string
	// Started is when Run began; FirstLaunch when the first task was sent
	// to an executor; Registered when each executor registered.
	Started, FirstLaunch time.Time
	Registered           []time.Time
}

// ExecutorSummary is one executor's share of the job.
type ExecutorSummary struct {
	ID        scheduler.ExecutorID
	Host      string
	Succeeded int
	Failed    int
	Lost      string // why it went away mid-job, if it did
}

// Driver runs a job on executors that connect to it. One event loop owns
// the scheduler core; each executor connection feeds it from a goroutine.
type Driver struct {
	cfg    Config
	sched  *scheduler.Scheduler
	ln     *wire.Listener
	events chan event

	execs map[scheduler.ExecutorID]*link
	// departing are executors whose connection ended, awaiting how.
	departing map[scheduler.ExecutorID]*link
	done      chan struct{}      // closed when Run returns
	every     []*ExecutorSummary // every executor that registered, lost ones too
	job       *jobspec.Job
	jobID     scheduler.JobID
	stages    map[scheduler.StageID]*jobspec.Stage
	sum       Summary
	start     time.Time
	// wake fires when the scheduler next has something due (a retry's
	// backoff ends, say), so that it is not put off to the next tick.
	wake *time.Timer
}

// link is a registered executor.
type link struct {
	id       scheduler.ExecutorID
	conn     *wire.Conn
	lastSeen time.Time
	sum      *ExecutorSummary
	// stopping says why the driver told the executor to stop, if it did:
	// its connection ending is then no loss.
	stopping string
	departed time.Time // when its connection ended, while departing
}

type event interface{}

type registered struct {
	conn *wire.Conn
	reg  *wire.Register
}

type statuses struct {
	id    scheduler.ExecutorID
	batch *wire.StatusBatch
}

type seen struct{ id scheduler.ExecutorID }

type lost struct {
	id  scheduler.ExecutorID
	err error
}

type rejected struct{}

// ended is the platform's word on how an executor's process ended.
type ended struct {
	id   scheduler.ExecutorID
	loss scheduler.ExecutorLoss
}

// New starts listening for executors.
func New(cfg Config) (*Driver, error) {
	if cfg.HeartbeatTimeout <= 0 {
		cfg.HeartbeatTimeout = 30 * time.Second
	}
	sched, err := scheduler.New(cfg.Scheduler)
	if err != nil {
		return nil, err
	}
	if len(cfg.Profiles) == 0 {
		return nil, errors.New("no executor profile")
	}
	for _, p := range cfg.Profiles {
		if err := sched.AddProfile(p); err != nil {
			return nil, err
		}
	}
	ln, err := wire.Listen("tcp", cfg.Listen, cfg.Secret)
	if err != nil {
		return nil, err
	}
	return &Driver{cfg: cfg, sched: sched, ln: ln, events: make(chan event, 1024), execs: map[scheduler.ExecutorID]*link{},
		departing: map[scheduler.ExecutorID]*link{}, done: make(chan struct{}), stages: map[scheduler.StageID]*jobspec.Stage{}}, nil
}

// Addr is where executors connect.
func (d *Driver) Addr() string { return d.ln.Addr().String() }

// Run submits job and drives it to its end, or until ctx is cancelled
// (then its tasks are killed and it ends unsuccessfully). Executors are
// told to shut down either way.
func (d *Driver) Run(ctx context.Context, job *jobspec.Job) (Summary, error) {
	defer close(d.done) // however Run ends, ExecutorEnded and Status stop waiting
	d.start = time.Now()
	d.job = job
	d.sum = Summary{Job: job.Name, Started: d.start}
	spec, err := job.SchedulerSpec(d.cfg.Profiles[0].ID)
	if err != nil {
		return d.sum, err
	}
	if d.cfg.StageProfiles != nil {
		if len(d.cfg.StageProfiles) != len(spec.Stages) {
			return d.sum, fmt.Errorf("%d stage profiles for %d stages", len(d.cfg.StageProfiles), len(spec.Stages))
		}
		for i, p := range d.cfg.StageProfiles {
			spec.Stages[i].Profile = p
		}
	}
	id, err := d.sched.SubmitJob(d.start, spec)
	if err != nil {
		return d.sum, err
	}
	d.jobID = id
	for i, sid := range d.sched.JobStages(id) {
		d.stages[sid] = &job.Stages[i]
		d.sum.Tasks += job.Stages[i].Tasks
	}

	acceptCtx, stopAccepting := context.WithCancel(context.Background())
	defer stopAccepting()
	go d.accept(acceptCtx)
	defer d.shutdown()

	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	d.wake = time.NewTimer(time.Hour)
	d.wake.Stop()
	defer d.wake.Stop()
	var allocTick <-chan time.Time
	if d.cfg.Allocation != nil {
		every := d.cfg.AllocationTick
		if every <= 0 {
			every = 100 * time.Millisecond
		}
		t := time.NewTicker(every)
		defer t.Stop()
		allocTick = t.C
	}
	cancel := ctx.Done()
	for {
		select {
		case now := <-allocTick:
			d.allocate(now)
		case ev := <-d.events:
			d.handle(ev)
			// Take every event already waiting before deciding: many
			// status reports make one round of placement.
			for drained := false; !drained; {
				select {
				case ev := <-d.events:
					d.handle(ev)
				default:
					drained = true
				}
			}
		case now := <-tick.C:
			d.checkHeartbeats(now)
		case <-d.wake.C:
		case <-cancel:
			// Once: a closed channel would keep this loop spinning while
			// the killed tasks finish.
			cancel = nil
			d.sched.CancelJob(d.jobID, context.Cause(ctx).Error())
		}
		if done, res := d.decide(); done {
			d.sum.Succeeded, d.sum.Reason = res.Succeeded, res.Reason
			d.sum.Duration = time.Since(d.start)
			for _, e := range d.every {
				d.sum.Executors = append(d.sum.Executors, *e)
			}
			sort.Slice(d.sum.Executors, func(i, j int) bool { return d.sum.Executors[i].ID < d.sum.Executors[j].ID })
			return d.sum, nil
		}
	}
}

func (d *Driver) accept(ctx context.Context) {
	for {
		conn, err := d.ln.Accept(ctx)
		switch {
		case err == nil:
			go d.serve(conn)
		case errors.Is(err, wire.ErrHandshake):
			d.events <- rejected{}
		case ctx.Err() != nil || errors.Is(err, net.ErrClosed):
			return
		}
		// Another error (out of file descriptors, say) passes: the
		// Listener waits before it accepts again.
	}
}

// registerTimeout bounds the wait for an executor's first message, its
// Register, which it sends as soon as it is connected: a peer that holds
// the secret but says nothing does not keep a connection for good.
const registerTimeout = 3 * time.Second

// serve reads one executor's messages until its connection ends.
func (d *Driver) serve(conn *wire.Conn) {
	conn.SetReadDeadline(time.Now().Add(registerTimeout))
	first, err := conn.Recv()
	if err != nil || first.GetRegister() == nil {
		conn.Close()
		return
	}
	conn.SetReadDeadline(time.Time{})
	reg := first.GetRegister()
	id := scheduler.ExecutorID(reg.GetExecutorId())
	d.events <- registered{conn, reg}
	for {
		m, err := conn.Recv()
		if err != nil {
			d.events <- lost{id, err}
			return
		}
		switch {
		case m.GetStatusBatch() != nil:
			d.events <- statuses{id, m.GetStatusBatch()}
		case m.GetHeartbeat() != nil:
			d.events <- seen{id}
		}
	}
}

func (d *Driver) handle(ev event) {
	now := time.Now()
	switch ev := ev.(type) {
	case registered:
		d.register(now, ev)
	case statuses:
		if l := d.execs[ev.id]; l != nil {
			l.lastSeen = now
			for _, st := range ev.batch.GetStatuses() {
				d.taskStatus(now, l, st)
			}
		}
	case seen:
		if l := d.execs[ev.id]; l != nil {
			l.lastSeen = now
		}
	case lost:
		d.connectionEnded(now, ev.id, ev.err)
	case ended:
		d.executorEnded(now, ev.id, ev.loss)
	case rejected:
		d.sum.Rejected++
	case statusRequest:
		ev.reply <- d.status(now)
	}
}

func (d *Driver) register(now time.Time, ev registered) {
	id := scheduler.ExecutorID(ev.reg.GetExecutorId())
	reject := func(reason string) {
		ev.conn.Send(&wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: reason}}})
		ev.conn.Close()
	}
	if _, dup := d.execs[id]; dup {
		reject("executor id " + string(id) + " is already registered")
		return
	}
	profile := d.cfg.Profiles[0].ID
	if d.cfg.ExecutorProfile != nil {
		p, ok := d.cfg.ExecutorProfile(id)
		if !ok {
			reject("executor id " + string(id) + " is not one of this application's")
			return
		}
		profile = p
	}
	err := d.sched.AddExecutor(now, scheduler.ExecutorSpec{ID: id, Host: ev.reg.GetHost(), Profile: profile,
		Cores: int(ev.reg.GetCores()), GPUs: ev.reg.GetGpuAddresses()})
	if err != nil {
		reject(err.Error())
		return
	}
	d.sum.Registered = append(d.sum.Registered, now)
	s := &ExecutorSummary{ID: id, Host: ev.reg.GetHost()}
	d.every = append(d.every, s)
	d.execs[id] = &link{id: id, conn: ev.conn, lastSeen: now, sum: s}
	ev.conn.Send(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
}

func (d *Driver) taskStatus(now time.Time, l *link, st *wire.Status) {
	attempt := scheduler.AttemptID{Task: scheduler.TaskID{Stage: scheduler.StageID(st.GetStageId()), Index: int(st.GetTaskIndex())}, Attempt: int(st.GetAttempt())}
	var r scheduler.TaskResult
	switch st.GetState() {
	case wire.Status_SUCCEEDED:
		r.Outcome = scheduler.Succeeded
		l.sum.Succeeded++
	case wire.Status_FAILED:
		r = scheduler.TaskResult{Outcome: scheduler.Failed, Reason: st.GetReason(), ExitCode: int(st.GetExitCode())}
		l.sum.Failed++
		d.sum.Failures++
	case wire.Status_KILLED:
		r = scheduler.TaskResult{Outcome: scheduler.Killed, Reason: st.GetReason()}
	default:
		return // STARTED: nothing to decide
	}
	name := fmt.Sprintf("%s/stage%d-task%d-attempt%d", l.id, st.GetStageId(), st.GetTaskIndex(), st.GetAttempt())
	if st.GetStdoutCutBytes() > 0 {
		d.sum.OutputCut = append(d.sum.OutputCut, name+".stdout")
	}
	if st.GetStderrCutBytes() > 0 {
		d.sum.OutputCut = append(d.sum.OutputCut, name+".stderr")
	}
	// A report for an attempt the scheduler already wrote off (its
	// executor was declared lost) changes nothing.
	d.sched.TaskFinished(now, attempt, r)
	if d.cfg.OneTaskPerExecutor {
		d.retire(now, l)
	}
}

// retire takes an executor out of the scheduler before it can be given a
// second task, and tells it to stop: its container then ends.
func (d *Driver) retire(now time.Time, l *link) {
	if d.execs[l.id] != l {
		return // already gone
	}
	delete(d.execs, l.id)
	d.sched.RemoveExecutor(now, l.id, scheduler.ExecutorLoss{Reason: "its one task ended (fine-grained mode)"})
	l.conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "task done"}}})
	l.conn.Close()
}

// ExecutorEnded tells the driver how an executor's process ended (on
// YARN, from its container's exit status): the loss, blaming its tasks or
// not. Safe from any goroutine; after Run has returned it does nothing.
func (d *Driver) ExecutorEnded(id scheduler.ExecutorID, loss scheduler.ExecutorLoss) {
	select {
	case d.events <- ended{id, loss}:
	case <-d.done:
	}
}

// connectionEnded handles an executor's connection closing. An executor
// the driver told to stop is simply gone. Otherwise, with LossReasonWait,
// it takes no new tasks while the platform says how it ended; without,
// it is lost now, blamelessly.
func (d *Driver) connectionEnded(now time.Time, id scheduler.ExecutorID, err error) {
	l := d.execs[id]
	if l == nil {
		return
	}
	if l.stopping != "" {
		d.remove(now, l, scheduler.ExecutorLoss{Reason: l.stopping})
		return
	}
	why := fmt.Sprintf("connection ended: %v", err)
	if d.cfg.LossReasonWait <= 0 {
		d.lose(now, l, scheduler.ExecutorLoss{Reason: why})
		return
	}
	delete(d.execs, id)
	l.conn.Close()
	l.departed = now
	d.departing[id] = l
	d.sched.DisableExecutor(id)
}

// executorEnded applies the platform's word on an executor, whether its
// connection has ended yet or not.
func (d *Driver) executorEnded(now time.Time, id scheduler.ExecutorID, loss scheduler.ExecutorLoss) {
	if l := d.departing[id]; l != nil {
		delete(d.departing, id)
		d.lose(now, l, loss)
		return
	}
	if l := d.execs[id]; l != nil {
		if l.stopping != "" {
			loss = scheduler.ExecutorLoss{Reason: l.stopping}
		}
		d.lose(now, l, loss)
	}
}

// lose removes an executor that went away mid-job, recording why.
func (d *Driver) lose(now time.Time, l *link, loss scheduler.ExecutorLoss) {
	if l.stopping == "" {
		l.sum.Lost = loss.Reason
	}
	d.remove(now, l, loss)
}

// remove takes an executor out of the driver and the scheduler.
func (d *Driver) remove(now time.Time, l *link, loss scheduler.ExecutorLoss) {
	delete(d.execs, l.id)
	delete(d.departing, l.id)
	l.conn.Close()
	d.sched.RemoveExecutor(now, l.id, loss)
}

func (d *Driver) executorLost(now time.Time, id scheduler.ExecutorID, why string) {
	if l := d.execs[id]; l != nil {
		d.lose(now, l, scheduler.ExecutorLoss{Reason: why})
	}
}

// checkHeartbeats declares lost the executors that went quiet, and the
// departing ones whose end nobody explained in time.
func (d *Driver) checkHeartbeats(now time.Time) {
	var late []scheduler.ExecutorID
	for id, l := range d.execs {
		if now.Sub(l.lastSeen) > d.cfg.HeartbeatTimeout {
			late = append(late, id)
		}
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	for _, id := range late {
		d.executorLost(now, id, fmt.Sprintf("no heartbeat for %v", d.cfg.HeartbeatTimeout))
	}
	var unexplained []*link
	for _, l := range d.departing {
		if now.Sub(l.departed) >= d.cfg.LossReasonWait {
			unexplained = append(unexplained, l)
		}
	}
	sort.Slice(unexplained, func(i, j int) bool { return unexplained[i].id < unexplained[j].id })
	for _, l := range unexplained {
		d.lose(now, l, scheduler.ExecutorLoss{Reason: fmt.Sprintf("connection ended; no exit status within %v", d.cfg.LossReasonWait)})
	}
}

// allocate runs dynamic allocation on the scheduler's demand: each
// profile's total goes to Target, and the idle executors it releases are
// told to stop (their connections then end, which is no loss).
func (d *Driver) allocate(now time.Time) {
	byProfile := map[scheduler.ProfileID][]dynalloc.Executor{}
	for _, st := range d.sched.Executors() {
		byProfile[st.Profile] = append(byProfile[st.Profile], dynalloc.Executor{ID: st.ID, Running: st.Running, Idle: st.IdleSince})
	}
	profiles := make([]dynalloc.Profile, len(d.cfg.Profiles))
	for i, p := range d.cfg.Profiles {
		profiles[i] = dynalloc.Profile{ID: p.ID, Demand: d.sched.Demand(now, p.ID), Executors: byProfile[p.ID]}
	}
	for _, dec := range d.cfg.Allocation.Update(now, profiles) {
		if d.cfg.Target != nil {
			d.cfg.Target(dec.Profile, dec.Total)
		}
		for _, id := range dec.Release {
			if l := d.execs[id]; l != nil && l.stopping == "" {
				l.stopping = "idle: released by dynamic allocation"
				d.sched.DisableExecutor(id) // no task may land there on its way out
				l.conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: l.stopping}}})
			}
		}
	}
}

// decide carries out one round of the scheduler's decisions, reporting
// whether the job has ended.
func (d *Driver) decide() (bool, scheduler.JobResult) {
	now := time.Now()
	rd := d.sched.Ready(now)
	batches := map[scheduler.ExecutorID]*wire.LaunchBatch{}
	var order []scheduler.ExecutorID
	unbuilt := false
	for _, l := range rd.Launches {
		d.sum.Attempts++
		if l.Attempt.Attempt > 0 {
			d.sum.Retries++
		}
		launch, err := d.launch(l)
		if err != nil {
			// A command that cannot be built for this attempt (its
			// template fails for this task) would not be for the next:
			// the attempt fails, and its job with it, without retrying.
			d.sum.Failures++
			d.sched.TaskFinished(now, l.Attempt, scheduler.TaskResult{Outcome: scheduler.Failed, Reason: err.Error(), Permanent: true})
			unbuilt = true
			continue
		}
		b := batches[l.Executor]
		if b == nil {
			b = &wire.LaunchBatch{}
			batches[l.Executor] = b
			order = append(order, l.Executor)
		}
		b.Launches = append(b.Launches, launch)
		if d.sum.FirstLaunch.IsZero() {
			d.sum.FirstLaunch = now
		}
	}
	for _, id := range order {
		if lk := d.execs[id]; lk != nil {
			if err := lk.conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: batches[id]}}); err != nil {
				d.executorLost(now, id, fmt.Sprintf("sending tasks: %v", err))
			}
		}
	}
	for _, k := range rd.Kills {
		if lk := d.execs[k.Executor]; lk != nil {
			lk.conn.Send(&wire.Envelope{Message: &wire.Envelope_Kill{Kill: &wire.Kill{StageId: int64(k.Attempt.Task.Stage), TaskIndex: int32(k.Attempt.Task.Index), Attempt: int32(k.Attempt.Attempt), Reason: k.Reason}}})
		}
	}
	if d.cfg.Progress != nil {
		if p, ok := d.sched.JobProgress(d.jobID); ok {
			d.cfg.Progress(Progress{Job: d.job.Name, Tasks: p.Tasks, Succeeded: p.Succeeded, Running: p.Running, Failed: p.FailedAttempts, Executors: len(d.execs), Elapsed: time.Since(d.start)})
		}
	}
	for _, f := range rd.Finished {
		if f.Job == d.jobID {
			return true, f
		}
	}
	if unbuilt {
		// That failure ended the job: carry its end out now.
		return d.decide()
	}
	if at, ok := d.sched.Wakeup(now); ok {
		d.wake.Reset(time.Until(at))
	} else {
		d.wake.Stop()
	}
	return false, scheduler.JobResult{}
}

// launch builds the message that starts attempt l.
func (d *Driver) launch(l scheduler.Launch) (*wire.Launch, error) {
	st := d.stages[l.Attempt.Task.Stage]
	if st == nil {
		return nil, fmt.Errorf("no stage %d", l.Attempt.Task.Stage)
	}
	var argv []string
	if st.Builtin == "" {
		var err error
		if argv, err = st.TaskCommand(d.job.Name, l.Attempt.Task.Index, l.Attempt.Attempt); err != nil {
			return nil, err
		}
	}
	env, err := st.TaskEnv(d.job.Name, l.Attempt.Task.Index, l.Attempt.Attempt)
	if err != nil {
		return nil, err
	}
	m := &wire.Launch{
		StageId: int64(l.Attempt.Task.Stage), TaskIndex: int32(l.Attempt.Task.Index), Attempt: int32(l.Attempt.Attempt),
		Job: d.job.Name, Stage: st.Name, TaskCount: int32(st.Tasks), Argv: argv, Builtin: st.Builtin,
		GpuAddresses: l.Addresses, Cpus: int32(l.Request.CPUs),
	}
	for _, e := range env {
		m.Env = append(m.Env, &wire.EnvVar{Name: e.Name, Value: e.Value})
	}
	return m, nil
}

// shutdown tells every executor to stop and closes the listener.
func (d *Driver) shutdown() {
	for _, l := range d.execs {
		l.conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "job ended"}}})
		l.conn.Close()
	}
	d.ln.Close()
}
