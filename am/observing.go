package am

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/metrics"
	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The loop tells the application's history (am/history: the web UI's
// Store and the event log; and am/metrics) what it sees: jobs submitted and ended,
// attempts launched and ended, executors registered and let go. Events
// gather in d.observed during a turn and go out once per turn
// (observeTurn), so a turn of many statuses takes the Store's lock once.

// Observation is where a driver's history goes (any may be nil), and
// the application it is of.
type Observation struct {
	Store *history.Store
	Log   *history.Writer
	App   history.AppStarted
	// Environment is the application's settings, secrets redacted
	// (the environment page's, docs/ui.md).
	Environment []history.Setting

	// Metrics are the driver's Prometheus metrics, served at /metrics.
	Metrics *metrics.Metrics
}

func (d *Driver) observing() bool {
	return d.cfg.Observe.Store != nil || d.cfg.Observe.Log != nil || d.cfg.Observe.Metrics != nil
}

func (d *Driver) observe(now time.Time, e history.Event) {
	e.Time = now
	d.observed = append(d.observed, e)
}

// observeTurn hands the turn's events on.
func (d *Driver) observeTurn() {
	if len(d.observed) == 0 {
		return
	}
	if s := d.cfg.Observe.Store; s != nil {
		if err := s.Record(d.observed...); err != nil {
			d.log.WithError(err).Debug("history: an event the store did not take")
		}
	}
	if w := d.cfg.Observe.Log; w != nil {
		w.Append(d.observed...)
	}
	d.cfg.Observe.Metrics.Observe(d.observed)
	clear(d.observed)
	d.observed = d.observed[:0]
}

// observeStart records the application and its pools.
func (d *Driver) observeStart(now time.Time, job *jobspec.Job) {
	if !d.observing() {
		return
	}
	app := d.cfg.Observe.App
	if app.Name == "" && job != nil {
		app.Name = job.Name // one job's application is named after it
	}
	d.observe(now, history.Event{App: &app})
	if env := d.cfg.Observe.Environment; len(env) > 0 { // none is no event, as for pools
		d.observe(now, history.Event{Environment: env})
	}
	var pools []history.PoolInfo
	for _, p := range d.core.Status(now).Pools {
		pools = append(pools, history.PoolInfo{Name: p.Name, Mode: p.Mode, Weight: p.Weight, MinShare: p.MinShare})
	}
	if len(pools) > 0 { // none is no event: JSON would drop the empty list
		d.observe(now, history.Event{Pools: pools})
	}
	d.observeTurn()
}

func (d *Driver) observeJob(now time.Time, id scheduler.JobID, spec *jobspec.Job) {
	if !d.observing() {
		return
	}
	ids := d.core.JobStages(id)
	if len(ids) != len(spec.Stages) {
		return
	}
	byName := map[string]int64{}
	for i, st := range spec.Stages {
		byName[st.Name] = int64(ids[i])
	}
	js := history.JobSubmitted{ID: int64(id), Name: spec.Name, Pool: spec.Pool}
	for i, st := range spec.Stages {
		info := history.StageInfo{ID: int64(ids[i]), Name: st.Name, Tasks: st.Tasks, GPUs: st.GPUs, Cores: st.CPUs, Gang: st.Gang}
		for _, p := range st.After {
			info.Parents = append(info.Parents, byName[p])
		}
		js.Stages = append(js.Stages, info)
	}
	d.observe(now, history.Event{JobSubmitted: &js})
}

func (d *Driver) observeReady(now time.Time, rd *core.Ready) {
	if !d.observing() {
		return
	}
	d.observeGangs(now, rd)
	for i := range rd.Launches {
		l := &rd.Launches[i]
		d.observe(now, history.Event{TaskStarted: &history.TaskStarted{Stage: int64(l.Attempt.Task.Stage), Index: l.Attempt.Task.Index,
			Attempt: l.Attempt.Attempt, Executor: string(l.Executor), GPUs: l.GPUs, Accels: historyResources(l.Accels)}})
	}
	for _, r := range rd.Removed {
		d.observe(now, history.Event{ExecutorRemoved: &history.ExecutorRemoved{ID: string(r.Executor), Reason: r.Reason, Lost: r.Lost, TaskFault: r.TaskFault}})
	}
	for _, s := range rd.Finished {
		state := history.JobFailed
		switch {
		case s.Succeeded:
			state = history.JobSucceeded
		case s.Cancelled:
			state = history.JobCancelled
		}
		d.observe(now, history.Event{JobEnded: &history.JobEnded{ID: int64(s.ID), State: state, Reason: s.Reason}})
	}
	if f := rd.Unregister; f != nil {
		d.observe(now, history.Event{AppEnded: &history.AppEnded{Succeeded: f.Succeeded, Diagnostics: f.Diagnostics}})
	}
}

// observeGangs records the gangs launched in rd, each with where its
// ranks meet (their MASTER_ADDR and MASTER_PORT), before their
// attempts; and the gangs whose try at acquiring their slots timed out.
func (d *Driver) observeGangs(now time.Time, rd *core.Ready) {
	seen := map[int64]bool{}
	for i := range rd.Launches {
		l := &rd.Launches[i]
		g := history.GangStarted{Stage: int64(l.Attempt.Task.Stage)}
		for _, e := range l.Env {
			switch e.Name {
			case taskenv.MasterAddr:
				g.MasterAddr = e.Value
			case taskenv.MasterPort:
				g.MasterPort, _ = strconv.Atoi(e.Value)
			}
		}
		if g.MasterPort == 0 || seen[g.Stage] {
			continue // no gang's, or its gang's told
		}
		seen[g.Stage] = true
		d.observe(now, history.Event{GangStarted: &g})
	}
	for _, t := range rd.GangTimeouts {
		d.observe(now, history.Event{GangTimedOut: &history.GangTimedOut{Stage: int64(t.Stage), Try: t.Try, Message: t.Message, Soft: t.Soft}})
	}
}

func (d *Driver) observeStatuses(now time.Time, id scheduler.ExecutorID, b *wire.StatusBatch) {
	if !d.observing() {
		return
	}
	for _, st := range b.GetStatuses() {
		state := ""
		switch st.GetState() {
		case wire.Status_SUCCEEDED:
			state = history.TaskSucceeded
		case wire.Status_FAILED:
			state = history.TaskFailed
		case wire.Status_KILLED:
			state = history.TaskKilled
		default:
			continue
		}
		d.observe(now, history.Event{TaskEnded: &history.TaskEnded{Stage: st.GetStageId(), Index: int(st.GetTaskIndex()), Attempt: int(st.GetAttempt()),
			Executor: string(id), State: state, ExitCode: int(st.GetExitCode()), Reason: st.GetReason()}})
	}
}

func (d *Driver) observeExecutor(now time.Time, id scheduler.ExecutorID, reg *wire.Register) {
	if !d.observing() {
		return
	}
	x := history.ExecutorAdded{ID: string(id), Host: reg.GetHost(), Cores: int(reg.GetCores()), GPUs: reg.GetGpuAddresses(),
		Accels: historyResources(assignedFromWire(reg.GetResources())), LogURL: reg.GetLogUrl()}
	if ct, ok := d.core.Container(string(id)); ok {
		x.Container = ct.ID
	}
	if p, ok := d.core.ExecutorProfile(id); ok { // locally too: a label never empty
		x.Profile = strconv.Itoa(int(p))
	}
	d.observe(now, history.Event{ExecutorAdded: &x})
}

// historyResources are accelerators as the history records them; nil
// for none, as most attempts have.
func historyResources(as []scheduler.Assigned) []history.Resource {
	if len(as) == 0 {
		return nil
	}
	out := make([]history.Resource, len(as))
	for i, a := range as {
		out[i] = history.Resource{Name: a.Name, Addresses: a.Addresses}
	}
	return out
}

// History says where an application's history goes: its UI's Store
// always, its event log when Log is set.
type History struct {
	App history.AppStarted
	// Environment is its settings, redacted, for its environment page.
	Environment []history.Setting
	Limits      history.Limits
	Log         history.SegmentStore
}

// StartHistory is where a driver's history goes (Config.Observe), for a
// shell to pass it and serve the UI from: it makes the Store and the
// metrics and starts the event log's writer, going on after what an
// earlier attempt logged; stop ends the writer once it wrote what is
// pending.
func StartHistory(ctx context.Context, h History, log logrus.FieldLogger) (o Observation, stop func()) {
	o = Observation{Store: history.NewStore(h.Limits), Metrics: metrics.New(), App: h.App, Environment: h.Environment}
	if h.Log == nil {
		return o, func() {}
	}
	w, err := history.Continue(ctx, h.Log, o.Store, log)
	if err != nil {
		log.WithError(err).Warn("event log: what an earlier attempt logged does not read; the UI shows this attempt's history only")
		if w == nil {
			return o, func() {}
		}
	}
	o.Log = w
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(wctx)
	}()
	var once sync.Once
	return o, func() { once.Do(func() { cancel(); <-done }) }
}
