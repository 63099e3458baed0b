package am

import (
	"context"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The containers YARN kept from the attempts before this one are taken
// over whatever the journal says: those whose executors the journal
// names are dialled and adopted with what they still run, the others
// released; and no task is placed until each is accounted for
// (core.Core.Kept). An RM that restarted names some in a later
// allocate, which are taken over the same way.

// kept notes a container YARN kept, so that a release can name it, and
// describes it to the core as the journal does not know it.
func (d *Driver) kept(ct *hadoopyarn.ContainerProto) core.KeptContainer {
	c := allocatedContainer(ct, d.rm.y.PortInNodeName)
	d.rm.containers[c.ID] = ct
	return core.KeptContainer{ID: c.ID, Node: c.Node, NodeName: c.NodeName}
}

// adoptKept hands the core the kept containers, with what the journal
// said of each as this attempt began, and dials the executors it knows
// the addresses of. Those it does not are released, and no task starts
// until they are gone (core.Core.Kept).
func (d *Driver) adoptKept(ctx context.Context, now time.Time, r *Resumption, kept []*hadoopyarn.ContainerProto) {
	var cts []core.KeptContainer
	for _, ct := range kept {
		k := d.kept(ct)
		if x, known := d.journalled[k.ID]; known {
			k.Journalled, k.Profile, k.GPUIndices = true, scheduler.ProfileID(x.Profile), x.GPUIndices
			k.AccelIndices, k.Drain = assignedIndices(x.AccelIndices), keptDrain(d.journalledDrains, k.ID)
			go d.rejoin(ctx, r, k.ID, x.Address)
		}
		cts = append(cts, k)
	}
	d.log.WithField("containers", len(cts)).Info("taking over the containers YARN kept from the previous attempt")
	d.core.Kept(now, cts, r.Wait, r.Stop)
}

// stopKept has the NodeManagers of kept containers the core released
// stop them, and tells the core of each once its NodeManager says it is
// gone: the RM's word that it completed comes before it is.
func (d *Driver) stopKept(ctx context.Context, ids []string) {
	for _, id := range ids {
		ct := d.rm.containers[id]
		if ct == nil {
			continue
		}
		d.log.WithField("container", id).Info("stopping a container of the previous attempt; no task starts until it has stopped")
		d.rm.y.Launcher.Stop(ctx, ct, func(err error) {
			switch {
			case err == nil:
				d.send(keptStopped{id})
			case ctx.Err() == nil:
				d.log.WithField("container", id).WithError(err).Warn("a container of the previous attempt not known stopped: tasks wait for its executor's rejoin timeout")
			}
		})
	}
}

// rejoin dials a kept executor until it answers or the wait is over,
// then serves it as one that connected: it registers again, with the
// attempts it still runs.
func (d *Driver) rejoin(ctx context.Context, r *Resumption, id, addr string) {
	log := d.log.WithFields(logrus.Fields{"executor": id, "address": addr})
	deadline := time.Now().Add(r.Wait)
	for {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		conn, err := r.Dial(dctx, addr)
		cancel()
		if err == nil {
			log.Info("reached an executor of the previous attempt")
			d.serve(conn)
			return
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			log.WithError(err).Warn("an executor of the previous attempt could not be reached")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// keptLater takes over containers of the previous attempts that an
// allocate names (an RM that restarted learns of them from the
// NodeManagers as they come back).
func (d *Driver) keptLater(now time.Time, resp *hadoopyarn.AllocateResponseProto) {
	kept := resp.GetContainersFromPreviousAttempts()
	if len(kept) == 0 || d.cfg.Resume == nil {
		return
	}
	var fresh []*hadoopyarn.ContainerProto
	for _, ct := range kept {
		if d.rm.containers[yarn.ContainerID(ct.GetId())] == nil {
			fresh = append(fresh, ct)
		}
	}
	if len(fresh) > 0 {
		d.adoptKept(d.loopCtx, now, d.cfg.Resume, fresh)
	}
}
