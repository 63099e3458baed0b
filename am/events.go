package am

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// event is what the goroutines around the loop hand it. Each kind says
// how the loop feeds it to the core at now, in the loop: the method is
// unexported, so the kinds are this package's alone, and a kind that
// nobody handles does not compile. Every kind is declared here, beside
// its feed method, under the goroutine that sends it.
type event interface {
	feed(d *Driver, now time.Time)
}

// An executor's reader (Driver.serve): its Register, its messages, and
// its connection's end.

// registered is an executor's Register, on the connection out writes to.
type registered struct {
	out *outbox
	reg *wire.Register
}

func (ev registered) feed(d *Driver, now time.Time) { d.register(now, ev) }

// statuses are task statuses an executor reported.
type statuses struct {
	id    scheduler.ExecutorID
	batch *wire.StatusBatch
}

func (ev statuses) feed(d *Driver, now time.Time) {
	// Before the core: whether a success is final is decided as it
	// reports (a gang's tasks are journalled with their whole run).
	sts := taskStatuses(ev.batch)
	d.journal(handover.Succeeded(d.core, sts)...)
	d.core.Statuses(now, ev.id, sts)
	d.observeStatuses(now, ev.id, ev.batch)
}

// seen is an executor's heartbeat.
type seen struct{ id scheduler.ExecutorID }

func (ev seen) feed(d *Driver, now time.Time) { d.core.Seen(now, ev.id) }

// portPicked is an executor's answer to PickPort (core/gang.go).
type portPicked struct {
	id scheduler.ExecutorID
	p  *wire.PortPicked
}

func (ev portPicked) feed(d *Driver, now time.Time) {
	d.core.PortPicked(now, ev.id, ev.p.GetGang(), int(ev.p.GetPort()), ev.p.GetError())
}

// gpuSamples is an executor's latest samples, read off its connection
// (gpus.go).
type gpuSamples struct {
	id      scheduler.ExecutorID
	out     *outbox // the connection they came on
	samples []gpuuse.Sample
}

func (ev gpuSamples) feed(d *Driver, now time.Time) {
	// Only a registered executor's live connection speaks for it.
	if d.conns[ev.id] == ev.out {
		d.gpusSampled(ev.id, ev.samples, now)
	}
}

// connEnded is the end of an executor's connection, with its cause.
type connEnded struct {
	id  scheduler.ExecutorID
	out *outbox
	err error
}

func (ev connEnded) feed(d *Driver, now time.Time) {
	// A connection the core already dropped (its executor stopped, or
	// replaced) is none of its business.
	if d.conns[ev.id] == ev.out {
		delete(d.conns, ev.id)
		d.core.ConnectionEnded(now, ev.id, ev.err.Error())
		d.gpusSampled(ev.id, nil, now)
	}
}

// rejected is a connection the executor listener refused before it
// registered (Driver.accept).
type rejected struct{}

func (rejected) feed(d *Driver, _ time.Time) { d.core.Rejected() }

// allocateDone is an allocate's outcome (rm.go).
type allocateDone struct {
	resp     *hadoopyarn.AllocateResponseProto
	resynced bool
	err      error
}

func (ev allocateDone) feed(d *Driver, now time.Time) { d.allocated(now, ev) }

// launchFailed is a container the NodeManager launcher could not start
// an executor in.
type launchFailed struct {
	container string
	err       error
}

func (ev launchFailed) feed(d *Driver, now time.Time) {
	d.core.LaunchFailed(now, ev.container, ev.err.Error())
}

// keptStopped is a container of an earlier attempt, released, that its
// NodeManager says is gone (kept.go).
type keptStopped struct{ container string }

func (ev keptStopped) feed(d *Driver, now time.Time) { d.core.KeptStopped(now, ev.container) }

// freshCredentials carries delegation tokens fetched while the
// application runs, from the goroutine that fetched them to the loop,
// which owns them from then on (credentials.go).
type freshCredentials struct {
	tokens []credentials.Token
}

func (ev freshCredentials) feed(d *Driver, _ time.Time) { d.updateCredentials(ev) }

// statusRequest asks the loop for a Status (Driver.Status: the tracking
// page, say).
type statusRequest struct{ reply chan core.Status }

func (ev statusRequest) feed(d *Driver, now time.Time) { ev.reply <- d.withGPUs(d.core.Status(now)) }

// A session client's requests (session.go), answered on the reply
// channel each carries (capacity 1: the loop never waits on the client).

type submitRequest struct {
	job    *jobspec.Job
	follow bool
	reply  chan submitReply
}

func (ev submitRequest) feed(d *Driver, now time.Time) {
	id, err := d.core.Submit(now, ev.job, nil)
	r := submitReply{id: id, err: err}
	if err == nil {
		d.observeJob(now, id, ev.job)
	}
	if err == nil && d.cfg.Journal != nil {
		d.journalJob(id, ev.job)
		r.written = d.cfg.Journal.Written()
	}
	if err == nil && ev.follow {
		r.follower = &follower{job: id, updates: make(chan *wire.JobUpdate, 1), final: make(chan *wire.JobUpdate, 1), gone: make(chan struct{})}
		d.followers = append(d.followers, r.follower)
	}
	ev.reply <- r
}

// followRequest follows a job already submitted: a client whose
// session's AM was replaced by its next attempt follows its job on.
type followRequest struct {
	id    scheduler.JobID
	reply chan submitReply
}

func (ev followRequest) feed(d *Driver, now time.Time) {
	if _, ok := d.core.Job(now, ev.id); !ok {
		ev.reply <- submitReply{err: fmt.Errorf("the session has no job %d", ev.id)}
		return
	}
	f := &follower{job: ev.id, updates: make(chan *wire.JobUpdate, 1), final: make(chan *wire.JobUpdate, 1), gone: make(chan struct{})}
	d.followers = append(d.followers, f)
	ev.reply <- submitReply{id: ev.id, follower: f}
}

type listRequest struct{ reply chan []core.JobInfo }

func (ev listRequest) feed(d *Driver, now time.Time) { ev.reply <- d.core.Jobs(now) }

type cancelRequest struct {
	id     scheduler.JobID
	reason string
	reply  chan cancelReply
}

func (ev cancelRequest) feed(d *Driver, now time.Time) {
	err := d.core.Cancel(now, ev.id, ev.reason)
	info, _ := d.core.Job(now, ev.id)
	ev.reply <- cancelReply{info, err}
}

type stopRequest struct {
	reason string
	reply  chan []core.JobInfo
}

func (ev stopRequest) feed(d *Driver, now time.Time) {
	d.core.Stop(now, ev.reason)
	ev.reply <- d.core.Jobs(now)
}

type statsRequest struct{ reply chan core.SessionStats }

func (ev statsRequest) feed(d *Driver, now time.Time) { ev.reply <- d.core.Stats(now) }
