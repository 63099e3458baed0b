package am

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// YARN is how the loop reaches the RM and the NodeManagers.
type YARN struct {
	RM       *yarn.AMRMClient
	Launcher *nodemanager.Launcher
	// Register registers the AM again: after an RM restart (or failover)
	// allocate answers ApplicationMasterNotRegistered until it does.
	Register  func(ctx context.Context) error
	NodeLabel string
	// ResourceTypes are the YARN resource types of the accelerators
	// besides GPUs, by name (spindle.yarn.resourceMapping).
	ResourceTypes map[string]string
	// Placement, when it asks anything, sends every ask as a
	// SchedulingRequest with its placement constraint instead of a
	// ResourceRequest; a profile whose stages name a placement of their
	// own sends its asks so under that placement instead
	// (rm_placement.go).
	Placement yarn.Placement
	// PortInNodeName says the RM's scheduler names nodes host:port
	// (yarn.scheduler.include-port-in-node-name), so that is what the
	// blacklist takes; otherwise it takes hosts.
	PortInNodeName bool
	// Tokens are the application's delegation tokens as it started; the
	// loop owns them and their fresher replacements (Driver.UpdateTokens).
	Tokens []credentials.Token
	// RMWait is how long the allocate keeps trying an RM out of reach,
	// RMRetryInterval the pause between tries (rm_reach.go); zero: no
	// longer than the RPC client's own tries.
	RMWait, RMRetryInterval time.Duration
	// AMContainer is the AM's own container, which it releases to hand
	// the application over to its next attempt (handover.go); nil: not
	// known (core.ContainerConfig's AMContainer names it too).
	AMContainer *hadoopyarn.ContainerIdProto
}

// rmState is the loop's side of the AMRM conversation: what the protocol
// needs that the core's decisions do not.
type rmState struct {
	y          *YARN
	responseID int32
	// containers are the allocated containers not known to have
	// completed: their protos start them and name them in releases.
	containers map[string]*hadoopyarn.ContainerProto
	// placed is the placement each allocation tag's SchedulingRequests
	// went out under, for the message when the RM rejects one.
	placed map[string]yarn.Placement
}

func newRMState(y *YARN) *rmState {
	return &rmState{y: y, containers: map[string]*hadoopyarn.ContainerProto{}, placed: map[string]yarn.Placement{}}
}

// priority is profile p's asks' priority: one per profile, so that
// profiles of other shapes never share a scheduler key (0 is the AM's).
func priority(p scheduler.ProfileID) int32 { return int32(p) + 1 }

// resourceRequest is ask a as YARN's ResourceRequest: anywhere, at its
// profile's priority, under its own allocation request id (which the RM
// echoes in the containers that fill it), on nodes of its profile's
// label, else of label, when one is set.
func resourceRequest(a core.Ask, label string, types map[string]string) *hadoopyarn.ResourceRequestProto {
	others := map[string]int64{}
	if a.Profile.GPUs > 0 {
		others[yarn.GPU] = int64(a.Profile.GPUs)
	}
	for _, x := range a.Profile.Accels.List() {
		others[types[x.Name]] = int64(x.Amount)
	}
	ask := &hadoopyarn.ResourceRequestProto{
		Priority:            &hadoopyarn.PriorityProto{Priority: proto.Int32(priority(a.Profile.ID))},
		ResourceName:        proto.String("*"),
		Capability:          yarn.NewResource(a.Profile.MemoryMB, int32(a.Profile.Cores), others),
		NumContainers:       proto.Int32(int32(a.Count)),
		RelaxLocality:       proto.Bool(true),
		AllocationRequestId: proto.Int64(a.ID),
	}
	if a.Profile.NodeLabel != "" {
		label = a.Profile.NodeLabel // a stage's own
	}
	if label != "" {
		ask.NodeLabelExpression = proto.String(label)
	}
	return ask
}

// allocatedContainer is an allocated container as the core sees it: the
// allocation request id of the ask it fills, its node, and the node's name
// as the blacklist takes it.
func allocatedContainer(ct *hadoopyarn.ContainerProto, portInNodeName bool) core.Container {
	node, name := nodemanager.NodeID(ct.GetNodeId()), ct.GetNodeId().GetHost()
	if portInNodeName {
		name = node
	}
	return core.Container{ID: yarn.ContainerID(ct.GetId()), Node: node, NodeName: name, Ask: ct.GetAllocationRequestId()}
}

// allocate sends one allocate from a goroutine; its answer comes back to
// the loop as an event. An RM that forgot the application is registered
// with again first, there, so that the loop never blocks on the RM.
func (d *Driver) allocate(ctx context.Context, req *core.AllocateRequest) {
	r := d.rm
	msg := &hadoopyarn.AllocateRequestProto{ResponseId: proto.Int32(r.responseID), Progress: proto.Float32(req.Progress)}
	for _, id := range req.Release {
		if ct := r.containers[id]; ct != nil {
			msg.Release = append(msg.Release, ct.GetId())
		} else if am := r.y.AMContainer; am != nil && id == yarn.ContainerID(am) {
			msg.Release = append(msg.Release, am) // handing over (handover.go)
		}
	}
	var asks []string // allocation request id:outstanding
	for _, a := range req.Asks {
		asks = append(asks, fmt.Sprintf("%d:%d", a.ID, a.Count))
		if place := r.placementOf(a.Profile); place.Constrained() {
			r.placed[executorTag(a.Profile.ID)] = place
			msg.SchedulingRequests = append(msg.SchedulingRequests, schedulingRequest(a, place, r.y.ResourceTypes))
		} else {
			msg.Ask = append(msg.Ask, resourceRequest(a, r.y.NodeLabel, r.y.ResourceTypes))
		}
	}
	if len(req.Exclude)+len(req.Include) > 0 {
		msg.BlacklistRequest = &hadoopyarn.ResourceBlacklistRequestProto{BlacklistAdditions: req.Exclude, BlacklistRemovals: req.Include}
		d.log.WithFields(logrus.Fields{"excluded": req.Exclude, "included": req.Include}).Warn("changing the nodes excluded from the application's asks")
	}
	// An allocate carries only the asks that changed: say so when it does.
	if len(req.Asks)+len(req.Release) > 0 {
		d.log.WithFields(logrus.Fields{"asks": strings.Join(asks, " "), "released": len(req.Release)}).Info("asking the ResourceManager for containers")
	}
	m := d.cfg.Observe.Metrics
	m.AllocateSent(req.Asks, len(msg.Release))
	go func() {
		var resp *hadoopyarn.AllocateResponseProto
		err := d.reachRM(ctx, "allocate", func() (err error) {
			start := time.Now()
			resp, err = r.y.RM.Allocate(ctx, msg)
			m.AllocateTook(time.Since(start))
			return err
		})
		// An unset command reads as the enum's first value, AM_RESYNC:
		// look at the field itself.
		if err == nil && resp.AMCommand != nil && *resp.AMCommand == hadoopyarn.AMCommandProto_AM_RESYNC || errors.Is(err, ipc.ErrApplicationMasterNotRegistered) {
			// A restarted RM has forgotten us (older RMs say AM_RESYNC):
			// register again; the next allocate starts over.
			if err := d.reachRM(ctx, "registering again", func() error { return r.y.Register(ctx) }); err != nil {
				d.send(allocateDone{err: fmt.Errorf("registering again after the RM forgot the application: %w", err)})
				return
			}
			d.send(allocateDone{resynced: true})
			return
		}
		d.send(allocateDone{resp: resp, err: err})
	}()
}

// allocated feeds an allocate's outcome to the core.
func (d *Driver) allocated(now time.Time, ev allocateDone) {
	r := d.rm
	switch {
	case ev.resynced:
		r.responseID = 0
		d.core.Resynced(now)
		return
	case ev.err != nil:
		d.core.Fail(now, fmt.Sprintf("allocate: %v", ev.err))
		return
	case ev.resp.AMCommand != nil && *ev.resp.AMCommand == hadoopyarn.AMCommandProto_AM_SHUTDOWN:
		d.core.Fail(now, "the ResourceManager told the ApplicationMaster to shut down (AM_SHUTDOWN): it no longer runs this attempt")
		return
	}
	resp := ev.resp
	r.responseID = resp.GetResponseId()
	r.y.Launcher.AddTokens(resp.GetNmTokens())
	res := core.AllocateResult{ClusterNodes: int(resp.GetNumClusterNodes())}
	res.Preempted = preemptedContainers(resp.GetPreempt())
	d.keptLater(now, resp)
	for _, st := range resp.GetCompletedContainerStatuses() {
		id := yarn.ContainerID(st.GetContainerId())
		delete(r.containers, id)
		d.journal(handover.Gone(id))
		res.Completed = append(res.Completed, core.Completion{Container: id, ExitStatus: st.GetExitStatus(), Diagnostics: st.GetDiagnostics()})
	}
	for _, n := range resp.GetUpdatedNodes() {
		u := updatedNode(n, r.y.PortInNodeName)
		res.Nodes = append(res.Nodes, u)
		d.log.WithFields(logrus.Fields{"node": u.Node, "state": n.GetNodeState().String()}).Info("the ResourceManager reports a node's state changed")
	}
	for _, ct := range resp.GetAllocatedContainers() {
		c := allocatedContainer(ct, r.y.PortInNodeName)
		r.containers[c.ID] = ct
		res.Allocated = append(res.Allocated, c)
	}
	d.cfg.Observe.Metrics.Allocated(len(res.Allocated))
	if n := len(res.Allocated); n > 0 {
		d.log.WithField("allocated", n).Info("containers allocated")
	}
	for _, c := range res.Completed {
		d.log.WithFields(logrus.Fields{"container": c.Container, "exit_status": c.ExitStatus}).Info("container completed")
	}
	d.core.Allocated(now, res)
	if why := rejectedPlacement(resp.GetRejectedSchedulingRequests(), r.placed); why != "" {
		d.core.Fail(now, why)
	}
}

// startContainers has the NodeManagers start `spindle executor` in the
// containers the core kept, each told its part of the launch contract.
func (d *Driver) startContainers(ctx context.Context, starts []core.ContainerStart) {
	for _, s := range starts {
		ct := d.rm.containers[s.Container]
		if ct == nil {
			continue
		}
		l := executor.Launch{ExecutorID: s.Container, Cores: s.Profile.Cores, GPUs: s.Profile.GPUs, AMGPUIndices: s.GPUIndices}
		fields := logrus.Fields{"container": s.Container, "node": s.Node, "gpu_indices": s.GPUIndices}
		for _, x := range s.Profile.Accels.List() {
			indices := scheduler.Addresses(s.AccelIndices, x.Name)
			l.Accels = append(l.Accels, executor.Accelerator{Name: x.Name, Amount: x.Amount, AMIndices: indices})
			fields[x.Name+"_indices"] = indices // only where there are some: log readers match the line as it was
		}
		d.log.WithFields(fields).Info("launching executor")
		env := l.Env()
		id := s.Container
		d.rm.y.Launcher.Start(ctx, ct, env, func(err error) {
			if err != nil && ctx.Err() == nil {
				d.send(launchFailed{id, err})
			}
		})
	}
}
