package am

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// event is what the goroutines around the loop hand it. Each kind says
// how the loop feeds it to the core at now, in the loop: the method is
// unexported, so the kinds are this package's alone, and a kind that
// nobody handles does not compile.
type event interface {
	feed(d *Driver, now time.Time)
}

func (ev registered) feed(d *Driver, now time.Time) { d.register(now, ev) }

func (ev statuses) feed(d *Driver, now time.Time) {
	// Before the core: whether a success is final is decided as it
	// reports (a gang's tasks are journalled with their whole run).
	d.journalSucceeded(ev.batch)
	d.core.Statuses(now, ev.id, taskStatuses(ev.batch))
	d.observeStatuses(now, ev.id, ev.batch)
}

func (ev seen) feed(d *Driver, now time.Time) { d.core.Seen(now, ev.id) }

func (ev portPicked) feed(d *Driver, now time.Time) {
	d.core.PortPicked(now, ev.id, ev.p.GetGang(), int(ev.p.GetPort()), ev.p.GetError())
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

func (ev gpuSamples) feed(d *Driver, now time.Time) {
	// Only a registered executor's live connection speaks for it.
	if d.conns[ev.id] == ev.out {
		d.gpusSampled(ev.id, ev.samples, now)
	}
}

func (rejected) feed(d *Driver, _ time.Time) { d.core.Rejected() }

func (ev statusRequest) feed(d *Driver, now time.Time) { ev.reply <- d.withGPUs(d.core.Status(now)) }

func (ev allocateDone) feed(d *Driver, now time.Time) { d.allocated(now, ev) }

func (ev launchFailed) feed(d *Driver, now time.Time) {
	d.core.LaunchFailed(now, ev.container, ev.err.Error())
}

func (ev freshCredentials) feed(d *Driver, _ time.Time) { d.updateCredentials(ev) }

// A session client's requests, answered on the reply channel each
// carries (capacity 1: the loop never waits on the client).

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

func (ev followRequest) feed(d *Driver, now time.Time) {
	if _, ok := d.core.Job(now, ev.id); !ok {
		ev.reply <- submitReply{err: fmt.Errorf("the session has no job %d", ev.id)}
		return
	}
	f := &follower{job: ev.id, updates: make(chan *wire.JobUpdate, 1), final: make(chan *wire.JobUpdate, 1), gone: make(chan struct{})}
	d.followers = append(d.followers, f)
	ev.reply <- submitReply{id: ev.id, follower: f}
}

func (ev listRequest) feed(d *Driver, now time.Time) { ev.reply <- d.core.Jobs(now) }

func (ev cancelRequest) feed(d *Driver, now time.Time) {
	err := d.core.Cancel(now, ev.id, ev.reason)
	info, _ := d.core.Job(now, ev.id)
	ev.reply <- cancelReply{info, err}
}

func (ev stopRequest) feed(d *Driver, now time.Time) {
	d.core.Stop(now, ev.reason)
	ev.reply <- d.core.Jobs(now)
}

func (ev statsRequest) feed(d *Driver, now time.Time) { ev.reply <- d.core.Stats(now) }
