package am

import (
	"context"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The containers YARN kept from the attempts before this one are taken
// over whatever the journal says (handover.Takeover decides which are
// adopted and which released): the driver dials the executors to adopt,
// has the NodeManagers stop the released containers, and takes over
// those an allocate names later (an RM that restarted).

// keptContainers notes containers YARN kept, so that a release can name
// them, and describes them to the core as YARN names them.
func (d *Driver) keptContainers(kept []*hadoopyarn.ContainerProto) []core.KeptContainer {
	out := make([]core.KeptContainer, 0, len(kept))
	for _, ct := range kept {
		c := allocatedContainer(ct, d.rm.y.PortInNodeName)
		d.rm.containers[c.ID] = ct
		out = append(out, core.KeptContainer{ID: c.ID, Node: c.Node, NodeName: c.NodeName})
	}
	return out
}

// rejoinAll dials the kept executors to adopt, each from a goroutine of
// its own.
func (d *Driver) rejoinAll(ctx context.Context, dial []handover.Rejoin) {
	for _, j := range dial {
		go d.rejoin(ctx, d.cfg.Resume, j.Container, j.Address)
	}
}

// stopKept has the NodeManagers of containers the core released stop
// them (kept ones of the previous attempt, or written-off executors'
// whose tasks wait: core's cut.go), and tells the core of each once its
// NodeManager says it is gone: the RM's word that it completed comes
// before it is.
func (d *Driver) stopKept(ctx context.Context, ids []string) {
	for _, id := range ids {
		ct := d.rm.containers[id]
		if ct == nil {
			continue
		}
		d.log.WithField("container", id).Info("stopping a released container; the tasks it may run wait until it has stopped")
		d.rm.y.Launcher.Stop(ctx, ct, func(err error) {
			switch {
			case err == nil:
				d.send(keptStopped{id})
			case ctx.Err() == nil:
				d.log.WithField("container", id).WithError(err).Warn("a released container not known stopped: the tasks it may run wait for its executor's rejoin timeout")
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
	if len(kept) == 0 || d.takeover == nil {
		return
	}
	var fresh []*hadoopyarn.ContainerProto
	for _, ct := range kept {
		if d.rm.containers[yarn.ContainerID(ct.GetId())] == nil {
			fresh = append(fresh, ct)
		}
	}
	if len(fresh) > 0 {
		d.log.WithField("containers", len(fresh)).Info("taking over the containers YARN kept from the previous attempt")
		d.rejoinAll(d.loopCtx, d.takeover.Kept(d.core, now, d.keptContainers(fresh)))
	}
}
