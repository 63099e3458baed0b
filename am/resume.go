package am

import (
	"context"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Resumption is what an AM attempt takes over from the one before it
// (docs/reliability.md): the state its journal says, and the executor
// containers YARN kept.
type Resumption struct {
	State *journal.State
	// Kept are the containers the registration (or a later allocate)
	// names as the previous attempts'.
	Kept []*hadoopyarn.ContainerProto
	// Wait bounds how long placement waits for the kept executors to
	// register again.
	Wait time.Duration
	// Dial reaches an executor's rejoin listener (wire.Dial with the
	// executors' secret).
	Dial func(ctx context.Context, addr string) (*wire.Conn, error)
}

// resumeOrStartOver takes over what the previous attempt left
// (Config.Resume), saying which jobs it resumed; when that cannot be, it
// starts over, the error saying why it cannot either.
func (d *Driver) resumeOrStartOver(ctx context.Context) (map[scheduler.JobID]bool, error) {
	r := d.cfg.Resume
	if r == nil {
		return nil, nil
	}
	resumed, err := d.resume(ctx, time.Now(), r)
	if err == nil {
		return resumed, nil
	}
	d.log.WithError(err).Error("the previous attempt's work cannot be resumed: it starts over")
	return nil, d.startOver(time.Now(), r)
}

// resume resumes the journal's jobs in the core and takes over the kept
// containers, dialling their executors. A job the core refuses leaves it
// half-resumed: the error says so, and the caller starts over.
func (d *Driver) resume(ctx context.Context, now time.Time, r *Resumption) (map[scheduler.JobID]bool, error) {
	resumed := map[scheduler.JobID]bool{}
	for _, j := range r.State.Jobs {
		spec, err := jobspec.Parse(j.Spec, fmt.Sprintf("job %d of the journal", j.ID), jobspec.Defaults{})
		if err != nil {
			return nil, err
		}
		rj := core.ResumedJob{ID: scheduler.JobID(j.ID), FirstStage: scheduler.StageID(j.FirstStage), Spec: spec}
		for _, p := range j.StageProfiles {
			rj.StageProfiles = append(rj.StageProfiles, scheduler.ProfileID(p))
		}
		for _, sh := range j.StageShapes {
			rj.StageShapes = append(rj.StageShapes, scheduler.Profile{Cores: sh.Cores, MemoryMB: sh.MemoryMB, GPUs: sh.GPUs})
		}
		for _, t := range j.Done {
			rj.Done = append(rj.Done, core.TaskRef{StageIndex: t.Stage, Index: t.Index})
		}
		if err := d.core.Resume(now, rj); err != nil {
			return nil, err
		}
		resumed[rj.ID] = true
	}
	if err := d.core.NumberFrom(scheduler.JobID(r.State.NextJob), scheduler.StageID(r.State.NextStage)); err != nil {
		return nil, err
	}
	d.adoptKept(ctx, now, r, r.Kept)
	// The journal forgets the executors YARN did not keep.
	kept := map[string]bool{}
	for _, ct := range r.Kept {
		kept[yarn.ContainerID(ct.GetId())] = true
	}
	var gone []string
	for id := range r.State.Executors {
		if !kept[id] {
			gone = append(gone, id)
		}
	}
	for _, id := range gone {
		d.journalGone(id)
	}
	return resumed, nil
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
	if err := c.NumberFrom(scheduler.JobID(r.State.NextJob), scheduler.StageID(r.State.NextStage)); err != nil {
		return err
	}
	var kept []core.KeptContainer // none journalled: each is released
	for _, ct := range r.Kept {
		kept = append(kept, d.kept(ct))
	}
	d.core.Kept(now, kept, 0, 0)
	if d.cfg.Journal != nil {
		var ended []int
		for _, j := range r.State.Jobs {
			ended = append(ended, j.ID)
		}
		for _, id := range ended {
			d.cfg.Journal.Append(journal.Entry{JobEnded: &id})
		}
	}
	return nil
}

// kept notes a container YARN kept, so that a release can name it, and
// describes it to the core as the journal does not know it.
func (d *Driver) kept(ct *hadoopyarn.ContainerProto) core.KeptContainer {
	c := allocatedContainer(ct, d.rm.y.PortInNodeName)
	d.rm.containers[c.ID] = ct
	return core.KeptContainer{ID: c.ID, Node: c.Node, NodeName: c.NodeName}
}

// adoptKept hands the core the kept containers, with what the journal
// says of each, and dials the executors it knows the addresses of.
func (d *Driver) adoptKept(ctx context.Context, now time.Time, r *Resumption, kept []*hadoopyarn.ContainerProto) {
	var cts []core.KeptContainer
	for _, ct := range kept {
		k := d.kept(ct)
		if x, known := r.State.Executors[k.ID]; known {
			k.Journalled, k.Profile, k.GPUIndices = true, scheduler.ProfileID(x.Profile), x.GPUIndices
			k.AccelIndices = assignedIndices(x.AccelIndices)
			go d.rejoin(ctx, r, k.ID, x.Address)
		}
		cts = append(cts, k)
	}
	d.log.WithField("containers", len(cts)).Info("taking over the containers YARN kept from the previous attempt")
	d.core.Kept(now, cts, r.Wait, 0)
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
