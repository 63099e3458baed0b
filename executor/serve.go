package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/contain"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// Config is what an executor process is started with (by the local
// launcher's environment, or a YARN container's).
type Config struct {
	ID         string
	AppID      string
	Host       string
	DriverAddr string
	Secret     []byte
	Cores      int
	WantGPUs   int
	GPUSources Sources
	// Accels are the accelerators besides GPUs it must find
	// (DiscoverAccelerators), with GPUSources' environment and timeout.
	Accels  []Accelerator
	LogDir  string // task stdout/stderr and resources files
	WorkDir string // tasks' working directory
	// MaxTaskOutput caps each task's stdout and stderr file, keeping the
	// tail (spindle.task.log.maxBytes; 0: no cap).
	MaxTaskOutput int64
	// TaskLogs is how much of ended jobs' task files it keeps as a
	// session's driver tells it which jobs ended
	// (spindle.session.taskLogs.*; task_files.go).
	TaskLogs  tasklog.Policy
	Heartbeat time.Duration
	// KillGrace is how long a killed task gets between SIGTERM and
	// SIGKILL (0: contain.DefaultGrace).
	KillGrace time.Duration
	// TokenFile is the credentials file its tasks read their delegation
	// tokens from (the container's HADOOP_TOKEN_FILE_LOCATION); fresh
	// tokens from the driver replace it. Empty: no tokens (local mode).
	TokenFile string
	// RejoinTimeout is how long the executor keeps its tasks running,
	// once its driver's connection ended without a Shutdown, for the
	// application's next attempt to dial in and adopt them (rejoin.go);
	// 0: it stops them at once.
	RejoinTimeout time.Duration
	// RejoinHost is the host the rejoin listener binds and advertises:
	// in a YARN container its NodeManager's (NM_HOST), the name the
	// cluster reaches the node by, as the AM advertises its own; Host
	// when empty.
	RejoinHost string
	// LogURL is where a browser reads the executor's task files: in a
	// YARN container its NodeManager's page of the container's logs
	// (containerLogsURL); "" elsewhere.
	LogURL string
	// replyWait is how long a driver that dialed in has to answer the
	// executor's Register (0: rejoinReplyWait); tests shorten it.
	replyWait time.Duration
	// GPUSampleInterval is how often it asks nvidia-smi what its GPUs
	// are doing, for the driver (spindle.executor.gpuSampleInterval;
	// gpu_sampler.go); 0: never.
	GPUSampleInterval time.Duration
	// gpuSampleTimeout bounds each nvidia-smi run (0:
	// defaultGPUSampleTimeout); tests shorten it.
	gpuSampleTimeout time.Duration
	// Log is where the executor says what it does: registering, each
	// task's start and end, kills, and why it stopped. Nil logs nothing.
	Log logrus.FieldLogger
}

// Serve registers with the driver and runs the tasks it sends until the
// driver shuts it down or goes away; either way no task is left running.
// With cfg.RejoinTimeout a driver that goes away may be followed by
// another, the application's next attempt, which the executor waits for
// with its tasks running (rejoin.go).
func Serve(ctx context.Context, cfg Config) error {
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 3 * time.Second
	}
	if cfg.replyWait <= 0 {
		cfg.replyWait = rejoinReplyWait
	}
	if cfg.Log == nil {
		discard := logrus.New()
		discard.SetOutput(io.Discard)
		cfg.Log = discard
	}
	gpus, err := DiscoverGPUs(cfg.GPUSources, cfg.WantGPUs)
	if err != nil {
		return fmt.Errorf("executor %s does not register: %w", cfg.ID, err)
	}
	accels, err := DiscoverAccelerators(cfg.Accels, cfg.GPUSources.Env, cfg.GPUSources.ScriptTimeout)
	if err != nil {
		return fmt.Errorf("executor %s does not register: %w", cfg.ID, err)
	}
	e := &executor{cfg: cfg, gpus: gpus, accels: accels, guards: &contain.Pool{}, starting: map[attemptKey]bool{}, running: map[attemptKey]*Task{},
		live: map[attemptKey]liveAttempt{}, killed: map[attemptKey]bool{}, preempted: map[attemptKey]bool{}, out: make(chan *wire.Status, statusBuffer),
		files: newTaskFiles(cfg.LogDir, cfg.TaskLogs, cfg.Log)}
	// It listens before it registers: the driver learns where to find it
	// from its Register.
	if cfg.RejoinTimeout > 0 {
		if e.rejoin, err = listenForDrivers(cfg); err != nil {
			cfg.Log.WithError(err).Warn("no rejoin listener: if the driver goes away, the tasks stop at once")
		} else {
			defer e.rejoin.close()
		}
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	conn, err := wire.Dial(dctx, "tcp", cfg.DriverAddr, cfg.Secret)
	cancel()
	if err != nil {
		return fmt.Errorf("executor %s: connecting to the driver at %s: %w", cfg.ID, cfg.DriverAddr, err)
	}
	if err := conn.Send(e.registration(false)); err != nil {
		conn.Close()
		return err
	}
	reply, err := conn.Recv()
	if err != nil {
		return fmt.Errorf("executor %s: registering: %w", cfg.ID, err)
	}
	if r := reply.GetRejected(); r != nil {
		conn.Close()
		return fmt.Errorf("executor %s: the driver refused it: %s", cfg.ID, r.GetReason())
	}
	fields := logrus.Fields{"driver": cfg.DriverAddr, "host": cfg.Host, "cores": cfg.Cores, "gpus": strings.Join(gpus, ","), "pid": os.Getpid()}
	for _, a := range accels {
		fields[a.GetName()] = strings.Join(a.GetAddresses(), ",")
	}
	if e.rejoin != nil {
		fields["rejoin"] = e.rejoin.address
	}
	cfg.Log.WithFields(fields).Info("registered with the driver")
	return e.run(ctx, conn)
}

// statusBuffer is how many task statuses wait for the status sender: while
// the executor has no driver, the ended tasks' statuses up to this many,
// past it each ended task's goroutine holds its own until a driver takes
// them (sendStatuses).
const statusBuffer = 1024

type attemptKey struct {
	stage   int64
	index   int32
	attempt int32
}

// liveAttempt is a task attempt starting or running.
type liveAttempt struct {
	name  string               // tasklog.Name
	adopt *wire.RunningAttempt // what a new driver is told of it
}

type executor struct {
	cfg    Config
	gpus   []string
	accels []*wire.Resource // its accelerators besides GPUs
	// rejoin is where a next driver reaches the executor; nil without
	// cfg.RejoinTimeout.
	rejoin *rejoinPoint

	// guards run the tasks, one at a time each, and are kept for the next
	// (their start costs more than a task's own).
	guards *contain.Pool
	// files are the tasks' files, job by job, which it removes once
	// their jobs have ended, by cfg.TaskLogs.
	files *taskFiles

	mu       sync.Mutex
	starting map[attemptKey]bool
	running  map[attemptKey]*Task
	live     map[attemptKey]liveAttempt // those starting or running
	killed   map[attemptKey]bool        // asked to stop: they end KILLED, not FAILED
	closing  bool                       // the executor is stopping: no task may run on
	wg       sync.WaitGroup
	out      chan *wire.Status
	readers  sync.WaitGroup // one per driver connection

	// gpuSamples holds the latest samples of its GPUs not yet sent (nil
	// without a sampler: gpu_sampler.go).
	gpuSamples chan []gpuuse.Sample

	// preempted are tasks still starting when the executor was drained:
	// they get the checkpoint signal, with drainGrace, once started.
	preempted  map[attemptKey]bool
	drainGrace time.Duration
}

// run serves conn's driver and, if it goes away, the next that rejoins,
// until one shuts the executor down, ctx ends or no driver is left; then
// it stops every task.
func (e *executor) run(ctx context.Context, conn *wire.Conn) error {
	drivers, sendDone := make(chan *wire.Conn), make(chan struct{})
	go e.sendStatuses(drivers, sendDone)
	drivers <- conn
	stopFiles, filesDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(filesDone)
		e.files.run(stopFiles)
	}()
	stopSampling, samplingDone := make(chan struct{}), make(chan struct{})
	if s := newGPUSampler(e.cfg, e.gpus); s != nil {
		e.gpuSamples = make(chan []gpuuse.Sample, 1)
		go func() {
			defer close(samplingDone)
			s.run(e.cfg.GPUSampleInterval, e.gpuSamples, stopSampling)
		}()
	} else {
		close(samplingDone)
	}
	defer func() {
		// No driver will come again: what the stopped tasks say (a
		// success; a failure is the executor's end, not theirs: ended)
		// goes to the last one, if it still listens.
		close(drivers)
		e.killAll()
		e.wg.Wait()
		e.guards.Close()
		close(e.out)
		<-sendDone
		conn.Close()
		e.readers.Wait()
		close(stopFiles)
		<-filesDone
		close(stopSampling)
		<-samplingDone
	}()
	for {
		dialed, err := e.serveDriver(ctx, conn)
		if !errors.Is(err, errDriverLost) {
			return err
		}
		if e.rejoin == nil {
			// The driver is gone: nothing may outlive it.
			e.cfg.Log.WithError(err).Warn("the driver connection ended: stopping every task")
			return fmt.Errorf("%w: %w", ErrDriverGone, err)
		}
		conn.Close()
		drivers <- nil
		next, err := e.awaitDriver(ctx, err, dialed)
		if errors.Is(err, errDriverLost) {
			return fmt.Errorf("%w: %w", ErrDriverGone, err)
		}
		if err != nil {
			return err
		}
		conn = next
		drivers <- conn
	}
}

// errDriverLost is the end of a driver's connection without a Shutdown.
var errDriverLost = errors.New("driver connection ended")

// received is what a driver's connection gave: a message, or the error
// that ended it, in the order they came (a Shutdown before the end).
type received struct {
	m   *wire.Envelope
	err error
}

// serveDriver serves conn's driver, sending it heartbeats, until it shuts
// the executor down (nil), ctx ends (ctx's error), its connection ends or
// a new driver dials in to take its place (errDriverLost; and that
// driver's connection).
func (e *executor) serveDriver(ctx context.Context, conn *wire.Conn) (*wire.Conn, error) {
	msgs, quit := make(chan received, 64), make(chan struct{})
	defer close(quit)
	e.readers.Add(1)
	go func() {
		defer e.readers.Done()
		for {
			m, err := conn.Recv()
			select {
			case msgs <- received{m, err}:
			case <-quit:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var dialed <-chan *wire.Conn
	if e.rejoin != nil {
		dialed = e.rejoin.dialed
	}
	beat := time.NewTicker(e.cfg.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			e.cfg.Log.WithField("cause", context.Cause(ctx)).Warn("stopping every task")
			return nil, ctx.Err()
		case c := <-dialed:
			// Only the application's next attempt dials: this driver is
			// gone, whether or not its connection has said so yet.
			return c, fmt.Errorf("%w: a new ApplicationMaster dialed in from %s", errDriverLost, c.RemoteAddr())
		case now := <-beat.C:
			conn.Send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{UnixNanos: now.UnixNano()}}})
		case samples := <-e.gpuSamples:
			conn.Send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{UnixNanos: time.Now().UnixNano(),
				Gpus: wire.GPUUses(samples)}}})
		case r := <-msgs:
			if r.err != nil {
				return nil, fmt.Errorf("%w: %w", errDriverLost, r.err)
			}
			if p := r.m.GetPickPort(); p != nil {
				conn.Send(&wire.Envelope{Message: &wire.Envelope_PortPicked{PortPicked: pickPort(p.GetGang())}})
				continue
			}
			if e.handle(r.m) {
				return nil, nil
			}
		}
	}
}

// handle carries out a driver's message; true for a Shutdown.
func (e *executor) handle(m *wire.Envelope) bool {
	switch {
	case m.GetLaunchBatch() != nil:
		for _, l := range m.GetLaunchBatch().GetLaunches() {
			e.launch(l)
		}
	case m.GetKill() != nil:
		k := m.GetKill()
		e.kill(attemptKey{k.GetStageId(), k.GetTaskIndex(), k.GetAttempt()}, k.GetReason())
	case m.GetCredentials() != nil:
		e.updateCredentials(m.GetCredentials().GetFile())
	case m.GetJobsEnded() != nil:
		e.files.jobsEnded(m.GetJobsEnded().GetJobIds())
	case m.GetDrain() != nil:
		e.drain(m.GetDrain().GetReason(), time.Duration(m.GetDrain().GetGraceMs())*time.Millisecond)
	case m.GetShutdown() != nil:
		e.cfg.Log.WithField("reason", m.GetShutdown().GetReason()).Info("the driver shut the executor down")
		return true
	}
	return false
}

func status(l *wire.Launch, state wire.Status_State, start, end time.Time) *wire.Status {
	return &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: state,
		StartUnixNanos: start.UnixNano(), EndUnixNanos: end.UnixNano()}
}

func (e *executor) launch(l *wire.Launch) {
	now := time.Now()
	if e.builtin(l, now) {
		return
	}
	key := attemptKey{l.GetStageId(), l.GetTaskIndex(), l.GetAttempt()}
	name := tasklog.Name(l.GetJobId(), int(l.GetStageIndex()), int(l.GetTaskIndex()), int(l.GetAttempt()))
	log := e.cfg.Log.WithFields(logrus.Fields{"task": name, "job": l.GetJob(), "stage": l.GetStage()})
	jobID, files := l.GetJobId(), attemptFiles{l.GetStageIndex(), l.GetTaskIndex(), l.GetAttempt()}
	e.files.started(jobID, files)
	resources := filepath.Join(e.cfg.LogDir, name+tasklog.Resources)
	if err := WriteTaskResourcesFile(resources, l.GetGpuAddresses(), l.GetResources()); err != nil {
		log.WithError(err).Warn("task not started")
		e.files.finished(jobID, files)
		e.fail(l, now, err)
		return
	}
	spec := TaskSpec{Argv: l.GetArgv(), Env: e.taskEnv(l, name, resources), Dir: e.cfg.WorkDir, Name: name, Grace: e.cfg.KillGrace,
		StdoutPath: filepath.Join(e.cfg.LogDir, name+tasklog.Stdout), StderrPath: filepath.Join(e.cfg.LogDir, name+tasklog.Stderr),
		MaxOutput: e.cfg.MaxTaskOutput}
	e.mu.Lock()
	e.starting[key] = true
	e.live[key] = liveAttempt{name: name, adopt: &wire.RunningAttempt{JobId: jobID, StageId: l.GetStageId(), StageIndex: l.GetStageIndex(),
		TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), GpuAddresses: l.GetGpuAddresses(), Cpus: l.GetCpus(), StartUnixNanos: now.UnixNano(),
		Resources: l.GetResources()}}
	e.mu.Unlock()
	e.wg.Add(1)
	// Starting a task (its guard, then the task) takes milliseconds: the
	// tasks of one batch start side by side, and the executor's loop goes
	// on meanwhile.
	go func() {
		defer e.wg.Done()
		e.runAttempt(l, key, files, spec, log, now)
	}()
}

// builtin carries out a launch of a builtin ("noop": it succeeds at
// once), failing one of a builtin it does not know; false for a launch
// of a command.
func (e *executor) builtin(l *wire.Launch, now time.Time) bool {
	switch l.GetBuiltin() {
	case "":
		return false
	case "noop":
		e.out <- status(l, wire.Status_SUCCEEDED, now, now)
	default:
		st := status(l, wire.Status_FAILED, now, now)
		st.Reason = fmt.Sprintf("unknown builtin %q", l.GetBuiltin())
		e.out <- st
	}
	return true
}

// runAttempt starts a launched attempt's task (launched at now) as spec
// says, acts on a kill or drain that came meanwhile, waits for its end
// and reports it.
func (e *executor) runAttempt(l *wire.Launch, key attemptKey, files attemptFiles, spec TaskSpec, log logrus.FieldLogger, now time.Time) {
	jobID := l.GetJobId()
	task, err := startIn(e.guards, spec)
	e.mu.Lock()
	delete(e.starting, key)
	if err != nil {
		delete(e.killed, key)
		delete(e.live, key)
		delete(e.preempted, key)
		e.mu.Unlock()
		log.WithError(err).Warn("task not started")
		e.files.finished(jobID, files)
		e.fail(l, now, err)
		return
	}
	log.WithField("gpus", strings.Join(l.GetGpuAddresses(), ",")).Debug("task started")
	e.running[key] = task
	// Killed, drained, or the executor stopping, while it started.
	stop, preempted, grace := e.killed[key] || e.closing, e.preempted[key], e.drainGrace
	delete(e.preempted, key)
	e.mu.Unlock()
	switch {
	case preempted:
		e.preempt(key, task, grace)
	case stop:
		task.Kill()
	}
	res := task.Wait()
	if res.OutputErr != "" {
		// The task ran; its log did not keep all it said. The
		// executor's own log is where an operator looks.
		log.Warn(res.OutputErr)
	}
	e.mu.Lock()
	delete(e.running, key)
	delete(e.live, key)
	killed := e.killed[key]
	delete(e.killed, key)
	closing := e.closing
	e.mu.Unlock()
	e.files.finished(jobID, files)
	if st := e.ended(l, log, res, killed, closing); st != nil {
		e.out <- st
	}
}

// ended logs how a task ended and returns its status report, or nil
// when the executor itself stopping ended it: a signal (its container
// killed as its NodeManager stops, preempted, over its memory limit), or
// its driver gone. That is its executor's end, not the task's: the driver
// learns of it from the executor's connection and exit status, which say
// whether the tasks were to blame (am/core/blame.go). Reported as a
// failure, it would count against the task and its host before the exit
// status could say otherwise.
func (e *executor) ended(l *wire.Launch, log logrus.FieldLogger, res Result, killed, closing bool) *wire.Status {
	st := status(l, wire.Status_SUCCEEDED, res.Start, res.End)
	switch {
	case killed:
		st.State, st.Reason = wire.Status_KILLED, "killed"
	case res.Err != nil:
		st.State, st.Reason = wire.Status_FAILED, res.Err.Error()
	case res.ExitCode != 0:
		st.State, st.Reason = wire.Status_FAILED, exitReason(res)
	}
	st.ExitCode = int32(res.ExitCode)
	st.StdoutCutBytes, st.StderrCutBytes = res.StdoutCut, res.StderrCut
	ended := log.WithFields(logrus.Fields{"state": st.State.String(), "duration": res.End.Sub(res.Start).Round(time.Millisecond)})
	if st.State != wire.Status_SUCCEEDED {
		ended = ended.WithField("reason", st.Reason)
	}
	if closing && st.State == wire.Status_FAILED {
		ended.Info("task stopped with the executor: not reported")
		return nil
	}
	ended.Info("task ended")
	return st
}

func exitReason(r Result) string {
	if r.Signal != "" {
		return "killed by signal " + r.Signal
	}
	return "exit status " + strconv.Itoa(r.ExitCode)
}

func (e *executor) fail(l *wire.Launch, at time.Time, err error) {
	st := status(l, wire.Status_FAILED, at, time.Now())
	st.Reason = err.Error()
	e.out <- st
}

func (e *executor) kill(key attemptKey, reason string) {
	e.mu.Lock()
	t := e.running[key]
	known := t != nil || e.starting[key]
	name := e.live[key].name
	if known {
		e.killed[key] = true
	}
	e.mu.Unlock()
	if known {
		e.cfg.Log.WithFields(logrus.Fields{"task": name, "reason": reason}).Info("killing task")
	}
	if t != nil {
		go t.Kill()
	}
}

func (e *executor) killAll() {
	e.mu.Lock()
	e.closing = true // tasks still starting stop themselves
	tasks := make([]*Task, 0, len(e.running))
	for _, t := range e.running {
		tasks = append(tasks, t)
	}
	e.mu.Unlock()
	if len(tasks) > 0 {
		e.cfg.Log.WithField("tasks", len(tasks)).Info("stopping the tasks still running")
	}
	var wg sync.WaitGroup
	for _, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Kill()
		}()
	}
	wg.Wait()
}

// Config is the configuration of an executor launched with l: its GPUs
// are looked for in environ (KEY=VALUE, the process's environment) and with
// l's discovery script; secret is the application secret (ReadSecret).
func (l Launch) Config(environ []string, secret []byte) Config {
	cfg := Config{ID: l.ExecutorID, AppID: l.AppID, DriverAddr: l.DriverAddress, Secret: secret, Cores: l.Cores, WantGPUs: l.GPUs,
		GPUSources: Sources{Env: environ, DiscoveryScript: l.GPUDiscoveryScript}, LogDir: l.LogDir, MaxTaskOutput: l.TaskLogMaxBytes, TaskLogs: l.TaskLogs,
		RejoinTimeout: l.RejoinTimeout, GPUSampleInterval: l.GPUSampleInterval, Accels: l.Accels}
	var err error
	if cfg.Host, err = os.Hostname(); err != nil {
		cfg.Host = "localhost"
	}
	cfg.WorkDir, _ = os.Getwd()
	env := lookupIn(environ)
	cfg.RejoinHost, _ = env("NM_HOST")
	cfg.LogURL = containerLogsURL(env)
	if l.SecretFrom == "credentials" {
		cfg.TokenFile, _ = env(credentials.EnvTokenFile)
	}
	return cfg
}
