package am

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// Config configures a driver.
type Config struct {
	// Core is the AM's rules; its HeartbeatTimeout defaults to 30s here.
	Core core.Config
	// Executors is where executors connect (wire.Listen, which holds the
	// secret that authenticates them); Run closes it.
	Executors *wire.Listener
	// Progress, when set, is called from the loop after each batch with
	// the job's progress; it must not wait on anything (a terminal, say:
	// spindle submit hands it to internal/latest, which writes the line
	// from a goroutine of its own).
	Progress func(core.Progress)
	// YARN, when set, keeps executor containers through the RM and the
	// NodeManagers (Config.Core.Containers must be set too).
	YARN *YARN
	// Log receives what the core decides (nil: logrus's standard logger).
	Log logrus.FieldLogger
	// Clients, for a session (Core.Session), is where its clients connect
	// (wire.Listen with the session's own secret); Run closes it.
	Clients *wire.Listener
	// PoolNotice, when set, says what a session client is told of a job's
	// pool: that it is undefined and made with Spark's defaults, say ("":
	// nothing).
	PoolNotice func(pool string) string
	// ClientAuth, when set (a session on a secure cluster), admits each
	// client request: it checks the request's client-to-AM token and
	// whether its client may make it (modify: submit, cancel, stop; else
	// view). A request it refuses is answered Rejected with its error.
	ClientAuth func(token *wire.ClientToken, modify bool) error
	// Journal, when set, is where the loop journals what the AM's next
	// attempt needs (journalling.go); Resume, when set, is what this
	// attempt takes over from the one before (resume.go).
	Journal *journal.Writer
	Resume  *Resumption
	// HandingOver, when set, is called as the AM begins to hand the
	// application over to its next attempt, its own node being
	// decommissioned (handover.go): a termination from then on is YARN
	// taking the node, not a cancel.
	HandingOver func()
	// Left, when set, is closed when the AM leaves the application to
	// its next attempt (a termination before its last attempt): the loop
	// returns at once, carrying nothing more out, and Run says ErrLeft.
	// What it was doing is the next attempt's, as after a crash: an RM
	// that already ended this attempt would otherwise fail the
	// application and stop the executors' tasks on the way out.
	Left <-chan struct{}
	// Observe is where the application's history goes (observing.go).
	Observe Observation
	// Turned, when set, is called from the loop at the end of each turn,
	// once its batch is carried out: how a test waits for the loop's
	// state to settle without polling it (am/amtest). It runs in the
	// loop, so it must return quickly and never call into the driver.
	Turned func(Turn)
}

// Driver runs a job on executors that connect to it: one goroutine, the
// loop in Run, owns the AM's core; executor connections (a reader and a
// writer each), session clients, the RM heartbeat and NodeManager calls
// run in goroutines that only feed it events and carry out its actions,
// and it waits on none of them (docs/architecture.md, "The loop").
type Driver struct {
	cfg    Config
	core   *core.Core
	ln     *wire.Listener
	log    logrus.FieldLogger
	events chan event
	done   chan struct{} // closed when Run returns
	// conns are the registered executors' ways out; the loop only posts
	// to them.
	conns map[scheduler.ExecutorID]*outbox
	rm    *rmState // nil in local mode
	// followers are session clients following a job (session.go);
	// clients counts the goroutines serving them.
	followers []*follower
	clients   sync.WaitGroup
	// tokens are the application's freshest delegation tokens
	// (YARN.Tokens, then UpdateTokens'), credentials the file of them
	// the executors' tasks get: nil until the first update.
	tokens      []credentials.Token
	credentials []byte
	// gpus are the live executors' latest GPU figures (gpus.go).
	gpus map[scheduler.ExecutorID][]gpuuse.Sample
	// loopCtx ends when Run returns: the goroutines the loop starts
	// (allocates, rejoins) stop with it.
	loopCtx context.Context
	// handedOver: the RM took the AM's own container back (handover.go).
	handedOver bool
	// observed are this turn's events for the history (observing.go).
	observed []history.Event
	// takeover is this attempt taking over the containers YARN kept
	// (resume.go, kept.go); nil when it has nothing to take over.
	takeover *handover.Takeover
}

// New returns a driver for executors connecting to cfg.Executors.
func New(cfg Config) (*Driver, error) {
	if cfg.Core.HeartbeatTimeout == 0 {
		cfg.Core.HeartbeatTimeout = 30 * time.Second
	}
	if cfg.Executors == nil {
		return nil, errors.New("no listener for executors")
	}
	if (cfg.YARN == nil) != (cfg.Core.Containers == nil) {
		return nil, errors.New("YARN and Core.Containers go together")
	}
	if (cfg.Clients != nil) != cfg.Core.Session {
		return nil, errors.New("a session, and only a session, has a listener for clients")
	}
	c, err := core.New(cfg.Core)
	if err != nil {
		return nil, err
	}
	log := cfg.Log
	if log == nil {
		log = logrus.StandardLogger()
	}
	d := &Driver{cfg: cfg, core: c, ln: cfg.Executors, log: log, events: make(chan event, 1024), done: make(chan struct{}),
		conns: map[scheduler.ExecutorID]*outbox{}, gpus: map[scheduler.ExecutorID][]gpuuse.Sample{}}
	if cfg.YARN != nil {
		d.rm = newRMState(cfg.YARN)
		d.tokens = cfg.YARN.Tokens
	}
	return d, nil
}

// Addr is where executors connect.
func (d *Driver) Addr() string { return d.ln.Addr().String() }

// Run submits job (stageProfiles as core.Core.Submit takes them) and
// drives the application to its end, or until ctx is cancelled (then the
// job's tasks are killed and it ends unsuccessfully, with ctx's cause).
// Executors are told to shut down either way, unless the AM hands the
// application over to its next attempt (ErrHandedOver). It returns the job's
// summary and, on YARN, how the application ended, for unregistering.
//
// A session (Config.Clients) has no job of its own: job is nil, and its
// clients submit jobs until one stops it or ctx is cancelled, which
// stops it too.
func (d *Driver) Run(ctx context.Context, job *jobspec.Job, stageProfiles []scheduler.ProfileID) (core.Summary, core.Final, error) {
	defer close(d.done) // however Run ends, goroutines stop waiting on the loop
	defer d.ln.Close()
	// After stopLoop (defers run last first): its clients' goroutines
	// send what they have, followers their job's last update.
	defer d.waitClients()
	loopCtx, stopLoop := context.WithCancel(context.Background())
	defer stopLoop()
	d.loopCtx = loopCtx
	resumed, err := d.resumeOrStartOver(loopCtx)
	if err != nil {
		return core.Summary{}, core.Final{Diagnostics: err.Error()}, err
	}
	d.observeStart(time.Now(), job)
	var id scheduler.JobID
	if d.cfg.Clients != nil {
		defer d.cfg.Clients.Close()
		go d.acceptClients(loopCtx)
	} else if handover.SubmitsItsJob(resumed) {
		if id, err = d.core.Submit(time.Now(), job, stageProfiles); err != nil {
			return core.Summary{Job: job.Name}, core.Final{Diagnostics: err.Error()}, err
		}
		d.journalJob(id, job)
		d.observeJob(time.Now(), id, job)
	}
	go d.accept(loopCtx)
	sum, final := d.loop(ctx, id)
	switch {
	case d.handedOver:
		return sum, final, ErrHandedOver
	case d.left():
		return sum, final, ErrLeft
	}
	return sum, final, nil
}

// loop turns until the core says Unregister (or the AM hands over, or
// leaves: Config.Left), and returns the single job's summary and how the
// application ended. Between turns it waits
// for the next event or the time the core named; ctx's end cancels job
// id (a session: stops it), once.
func (d *Driver) loop(ctx context.Context, id scheduler.JobID) (core.Summary, core.Final) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	cancel := ctx.Done()
	var sum core.Summary
	for !d.left() {
		rd := d.turn(time.Now(), &sum)
		if rd.Unregister != nil {
			return sum, *rd.Unregister
		}
		if rd.HandedOver {
			d.handedOver = true
			return sum, core.Final{}
		}
		if d.wait(timer, rd.Next, cancel) {
			// Once: a closed channel would keep this loop spinning while
			// the killed tasks finish.
			cancel = nil
			if d.cfg.Clients != nil {
				d.core.Stop(time.Now(), context.Cause(ctx).Error())
			} else {
				d.core.Cancel(time.Now(), id, context.Cause(ctx).Error())
			}
		}
	}
	return sum, core.Final{}
}

// turn is one turn of the loop at now: the core decides, and the batch
// is carried out, journalled, observed and told to followers. The single
// job's summary goes to sum once it has finished.
func (d *Driver) turn(now time.Time, sum *core.Summary) core.Ready {
	rd := d.core.Ready(now)
	// A session's jobs end one after another, each telling its own
	// client; Run's summary is the single job's (it would keep the
	// last job's list of executors and cut files).
	if s, ok := d.carryOut(d.loopCtx, rd); ok && d.cfg.Clients == nil {
		*sum = s
	}
	d.journalTurn(&rd)
	d.handOver(rd.Handover)
	d.observeReady(now, &rd)
	d.observeTurn()
	d.updateFollowers(now, rd.Finished)
	// After the followers: a client hears its job ended before the
	// executors are told to tidy up after it.
	d.sendJobsEnded(rd)
	if d.cfg.Turned != nil {
		d.cfg.Turned(Turn{d, now})
	}
	return rd
}

// wait sleeps until next (zero: nothing is due), at most followEvery
// while a client follows a job, or until an event or cancel comes,
// whichever is first; it feeds the core every event waiting, and says
// whether cancel came.
func (d *Driver) wait(timer *time.Timer, next time.Time, cancel <-chan struct{}) (cancelled bool) {
	wait := time.Hour
	if !next.IsZero() {
		wait = max(time.Until(next), 0)
	}
	if len(d.followers) > 0 {
		wait = min(wait, followEvery)
	}
	timer.Reset(wait)
	defer func() {
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}()
	select {
	case ev := <-d.events:
		ev.feed(d, time.Now())
		// Take every event already waiting before deciding: many
		// status reports make one round of placement.
		for {
			select {
			case ev := <-d.events:
				ev.feed(d, time.Now())
			default:
				return false
			}
		}
	case <-timer.C:
		return false
	case <-d.cfg.Left:
		return false
	case <-cancel:
		return true
	}
}

// ErrLeft is Run's error when Config.Left ended it.
var ErrLeft = errors.New("left to the application's next attempt")

// left says whether Config.Left is closed.
func (d *Driver) left() bool {
	select {
	case <-d.cfg.Left:
		return true
	default:
		return false
	}
}

// send hands an event to the loop, unless Run has returned.
func (d *Driver) send(ev event) {
	select {
	case d.events <- ev:
	case <-d.done:
	}
}

func (d *Driver) accept(ctx context.Context) {
	for {
		conn, err := d.ln.Accept(ctx)
		switch {
		case err == nil:
			go d.serve(conn)
		case errors.Is(err, wire.ErrHandshake):
			d.send(rejected{})
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
	out := newOutbox(conn, outboxSize, d.cfg.Core.HeartbeatTimeout, d.log.WithField("executor", id))
	go out.write()
	d.send(registered{out, reg})
	warned := false
	for {
		m, err := conn.Recv()
		if err != nil {
			d.send(connEnded{id, out, out.end(err)})
			return
		}
		switch {
		case m.GetStatusBatch() != nil:
			d.send(statuses{id, m.GetStatusBatch()})
		case m.GetPortPicked() != nil:
			d.send(portPicked{id, m.GetPortPicked()})
		case m.GetHeartbeat() != nil:
			d.send(seen{id})
			if samples := readGPUSamples(m.GetHeartbeat(), d.log.WithField("executor", id), &warned); samples != nil {
				d.send(gpuSamples{id, out, samples})
			}
		}
	}
}

func (d *Driver) register(now time.Time, ev registered) {
	id := scheduler.ExecutorID(ev.reg.GetExecutorId())
	err := d.core.Register(now, core.Registration{Executor: id, Host: ev.reg.GetHost(), Cores: int(ev.reg.GetCores()), GPUs: ev.reg.GetGpuAddresses(),
		Accels: assignedFromWire(ev.reg.GetResources()), Running: runningAttempts(ev.reg)})
	if err != nil {
		d.log.WithField("executor", id).Warnf("executor refused: %v", err)
		ev.out.closeAfter(&wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: err.Error()}}})
		return
	}
	d.conns[id] = ev.out
	d.journalExecutor(id, ev.reg.GetRejoinAddress())
	d.observeExecutor(now, id, ev.reg)
	ev.out.post(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
	if d.credentials != nil {
		ev.out.post(credentialsMessage(d.credentials))
	}
}

// runningAttempts are the attempts a rejoining executor still runs.
func runningAttempts(reg *wire.Register) []core.RunningAttempt {
	var out []core.RunningAttempt
	for _, r := range reg.GetRunning() {
		out = append(out, core.RunningAttempt{Attempt: scheduler.AttemptID{Task: scheduler.TaskID{Stage: scheduler.StageID(r.GetStageId()), Index: int(r.GetTaskIndex())},
			Attempt: int(r.GetAttempt())}, GPUs: r.GetGpuAddresses(), Accels: assignedFromWire(r.GetResources())})
	}
	return out
}

func taskStatuses(b *wire.StatusBatch) []core.TaskStatus {
	out := make([]core.TaskStatus, 0, len(b.GetStatuses()))
	for _, st := range b.GetStatuses() {
		ts := core.TaskStatus{
			Attempt: scheduler.AttemptID{Task: scheduler.TaskID{Stage: scheduler.StageID(st.GetStageId()), Index: int(st.GetTaskIndex())}, Attempt: int(st.GetAttempt())},
			Reason:  st.GetReason(), ExitCode: int(st.GetExitCode()), StdoutCut: st.GetStdoutCutBytes() > 0, StderrCut: st.GetStderrCutBytes() > 0,
		}
		switch st.GetState() {
		case wire.Status_SUCCEEDED:
			ts.State = core.TaskSucceeded
		case wire.Status_FAILED:
			ts.State = core.TaskFailed
		case wire.Status_KILLED:
			ts.State = core.TaskKilled
		default:
			ts.State = core.TaskStarted
		}
		out = append(out, ts)
	}
	return out
}

// carryOut does what a batch says, logging it, and returns the summary of
// a job that finished in it.
func (d *Driver) carryOut(ctx context.Context, rd core.Ready) (sum core.Summary, finished bool) {
	for _, n := range rd.Notices {
		d.logNotice(n)
	}
	for _, p := range rd.PortRequests {
		if out := d.conns[p.Executor]; out != nil {
			out.post(&wire.Envelope{Message: &wire.Envelope_PickPort{PickPort: &wire.PickPort{Gang: p.Gang}}})
		}
	}
	d.sendLaunches(rd.Launches)
	for _, k := range rd.Kills {
		if out := d.conns[k.Executor]; out != nil {
			d.log.WithFields(logrus.Fields{"executor": k.Executor, "task": k.Attempt.String()}).Infof("killing task: %s", k.Reason)
			out.post(&wire.Envelope{Message: &wire.Envelope_Kill{Kill: &wire.Kill{StageId: int64(k.Attempt.Task.Stage), TaskIndex: int32(k.Attempt.Task.Index), Attempt: int32(k.Attempt.Attempt), Reason: k.Reason}}})
		}
	}
	for _, dr := range rd.Drains {
		if out := d.conns[dr.Executor]; out != nil {
			d.log.WithFields(logrus.Fields{"executor": dr.Executor, "grace": dr.Grace}).Warnf("telling the executor's tasks to checkpoint and stop: %s", dr.Reason)
			out.post(&wire.Envelope{Message: &wire.Envelope_Drain{Drain: &wire.Drain{Reason: dr.Reason, GraceMs: dr.Grace.Milliseconds()}}})
		}
	}
	for _, x := range rd.Disconnects {
		if out := d.conns[x.Executor]; out != nil {
			d.log.WithField("executor", x.Executor).Infof("stopping executor: %s", x.Reason)
			// Its reader reports the connection ended, which the core
			// needs for an executor it asked to stop.
			out.closeAfter(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: x.Reason}}})
		}
	}
	if d.rm != nil {
		d.startContainers(ctx, rd.StartContainers)
		d.stopKept(ctx, rd.StopKept)
		if rd.Allocate != nil {
			d.allocate(ctx, rd.Allocate)
		}
	}
	for _, s := range rd.Finished {
		sum, finished = s, true
	}
	if d.cfg.Progress != nil && rd.Unregister == nil {
		for _, p := range d.core.Progress(time.Now()) {
			d.cfg.Progress(p)
		}
	}
	if f := rd.Unregister; f != nil {
		d.log.WithField("succeeded", f.Succeeded).Infof("application ended: %s", f.Diagnostics)
	}
	return sum, finished
}

// sendLaunches posts each executor its launches as one batch.
func (d *Driver) sendLaunches(ls []core.TaskLaunch) {
	for i := 0; i < len(ls); {
		k := i
		b := &wire.LaunchBatch{}
		for ; k < len(ls) && ls[k].Executor == ls[i].Executor; k++ {
			b.Launches = append(b.Launches, wireLaunch(ls[k]))
			d.log.WithFields(logrus.Fields{"executor": ls[k].Executor, "job": ls[k].Job, "task": ls[k].Attempt.String()}).
				Debugf("launching task of stage %s on GPUs %v", ls[k].Stage, ls[k].GPUs)
		}
		if out := d.conns[ls[i].Executor]; out != nil {
			out.post(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: b}})
		}
		i = k
	}
}

// sendJobsEnded tells each executor that ran tasks of the jobs that
// ended in rd which they are, in one message, so that it removes ended
// jobs' task files by its policy; not those rd stops (all of them when
// the application ends), which are going with their files.
func (d *Driver) sendJobsEnded(rd core.Ready) {
	if len(rd.JobsEnded) == 0 {
		return
	}
	var order []scheduler.ExecutorID
	jobs := map[scheduler.ExecutorID][]int64{}
	for _, e := range rd.JobsEnded {
		for _, x := range e.Executors {
			if _, ok := jobs[x]; !ok {
				order = append(order, x)
			}
			jobs[x] = append(jobs[x], int64(e.Job))
		}
	}
	for _, x := range order {
		out := d.conns[x]
		if out == nil || slices.ContainsFunc(rd.Disconnects, func(dc core.Disconnect) bool { return dc.Executor == x }) {
			continue
		}
		out.post(&wire.Envelope{Message: &wire.Envelope_JobsEnded{JobsEnded: &wire.JobsEnded{JobIds: jobs[x]}}})
	}
}

func wireLaunch(l core.TaskLaunch) *wire.Launch {
	m := &wire.Launch{
		StageId: int64(l.Attempt.Task.Stage), TaskIndex: int32(l.Attempt.Task.Index), Attempt: int32(l.Attempt.Attempt),
		Job: l.Job, Stage: l.Stage, TaskCount: int32(l.TaskCount), Argv: l.Argv, Builtin: l.Builtin,
		GpuAddresses: l.GPUs, Cpus: int32(l.CPUs), JobId: int64(l.JobID), StageIndex: int32(l.StageIndex),
		Resources: assignedToWire(l.Accels),
	}
	for _, e := range l.Env {
		m.Env = append(m.Env, &wire.EnvVar{Name: e.Name, Value: e.Value})
	}
	return m
}

// logNotice writes one of the core's notices with its fields.
func (d *Driver) logNotice(n core.Notice) {
	f := logrus.Fields{}
	for k, v := range map[string]string{"executor": string(n.Executor), "container": n.Container, "node": n.Node, "job": n.Job, "stage": n.Stage} {
		if v != "" {
			f[k] = v
		}
	}
	if n.Warning {
		d.log.WithFields(f).Warn(n.Message)
	} else {
		d.log.WithFields(f).Info(n.Message)
	}
}

// ErrEnded is Status's answer once Run has returned.
var ErrEnded = errors.New("the job has ended")

// Status asks the loop for a snapshot of the job; safe from any
// goroutine. The loop answers between two batches.
func (d *Driver) Status(ctx context.Context) (core.Status, error) {
	req := statusRequest{reply: make(chan core.Status, 1)}
	select {
	case d.events <- req:
	case <-d.done:
		return core.Status{}, ErrEnded
	case <-ctx.Done():
		return core.Status{}, ctx.Err()
	}
	select {
	case st := <-req.reply:
		return st, nil
	case <-d.done:
		return core.Status{}, ErrEnded
	case <-ctx.Done():
		return core.Status{}, ctx.Err()
	}
}
