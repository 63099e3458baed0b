package am

import (
	"context"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Resumption is what an AM attempt takes over from the ones before it
// (docs/reliability.md): the state its journal says (none without one:
// on a Kerberos cluster, switched off, or refused), and the executor
// containers YARN kept, which are taken over either way (kept.go).
type Resumption struct {
	State *journal.State
	// Kept are the containers the registration (or a later allocate)
	// names as the previous attempts'.
	Kept []*hadoopyarn.ContainerProto
	// Wait bounds how long placement waits for the kept executors to
	// register again.
	Wait time.Duration
	// Stop bounds how long placement waits for the kept containers it
	// releases to have stopped, as their NodeManagers say: by then an
	// executor no attempt reached has stopped its tasks itself
	// (core.Core.Kept).
	Stop time.Duration
	// Dial reaches an executor's rejoin listener (wire.Dial with the
	// executors' secret).
	Dial func(ctx context.Context, addr string) (*wire.Conn, error)
}

// resumeOrStartOver takes over what the previous attempt left
// (Config.Resume), saying which jobs it resumed; when that cannot be, it
// starts over, the error saying why it cannot either. What it decides
// is package handover's; the driver dials and journals.
func (d *Driver) resumeOrStartOver(ctx context.Context) (map[scheduler.JobID]bool, error) {
	r := d.cfg.Resume
	if r == nil {
		return nil, nil
	}
	t, plan, err := handover.Resume(d.core, time.Now(), r.State, d.keptContainers(r.Kept), r.Wait, r.Stop)
	if err == nil {
		d.takeover = t
		d.log.WithField("containers", len(r.Kept)).Info("taking over the containers YARN kept from the previous attempt")
		d.rejoinAll(ctx, plan.Rejoin)
		d.journal(plan.Journal...)
		return plan.Resumed, nil
	}
	d.log.WithError(err).Error("the previous attempt's work cannot be resumed: it starts over")
	return nil, d.startOver(time.Now(), r)
}

// startOver puts a core that could not resume the previous attempt's
// work (half-resumed, never to be used) in place of a new one, which
// releases the containers YARN kept, and tells the journal the work it
// held is over: this attempt runs its job from the start, and a session
// none of the jobs before.
func (d *Driver) startOver(now time.Time, r *Resumption) error {
	c, err := core.New(d.cfg.Core)
	if err != nil {
		return err
	}
	d.core = c
	t, ended, err := handover.StartOver(c, now, r.State, d.keptContainers(r.Kept), r.Stop)
	if err != nil {
		return err
	}
	d.takeover = t
	d.journal(ended...)
	return nil
}
