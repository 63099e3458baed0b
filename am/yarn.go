package am

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/launcher"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Containers keeps an ApplicationMaster's executors running on YARN: it
// asks the RM for containers of each executor profile's size (yarn.io/gpu
// included), has the launcher start `spindle executor` in each, reports how
// each one ended, and asks again for those that end. Executors then
// register with the driver like local ones.
type Containers struct {
	RM       *yarn.AMRMClient
	Launcher *nodemanager.Launcher
	// Profiles are the executors' shapes. Each has its own ask: priority
	// and allocation-request id ProfileID+1, so the RM keeps their counts
	// apart and says which ask each container fills.
	Profiles []scheduler.Profile
	// Initial is how many executors of each profile to keep at first;
	// SetTarget moves it (dynamic allocation).
	Initial map[scheduler.ProfileID]int
	// MaxGPUsPerNode is the most GPUs a node has (the maximum allocation).
	MaxGPUsPerNode int
	NodeLabel      string
	// Heartbeat is the allocate interval once nothing is pending (default
	// 1s). While containers are owed it starts at InitialAllocation
	// (default 200ms) and doubles up to Heartbeat, as Spark's does.
	Heartbeat         time.Duration
	InitialAllocation time.Duration
	// Register registers the AM again: after an RM restart (or failover)
	// allocate answers ApplicationMasterNotRegistered until it does.
	Register func(ctx context.Context) error
	// Progress reports the job's progress in [0,1] for each allocate, which
	// the RM shows as the application's (nil: 0).
	Progress func() float32
	// Ended is told how each started executor's container ended, for the
	// driver to blame its tasks or not (nil: nobody is told).
	Ended func(id scheduler.ExecutorID, loss scheduler.ExecutorLoss)
	// Executor failures (see nodeHealth): a node is excluded after
	// MaxFailuresPerNode of them (0: never) for ExcludeTimeout; Run fails
	// after MaxFailures in all (0: no limit) or once every node is excluded.
	MaxFailuresPerNode int
	ExcludeTimeout     time.Duration
	MaxFailures        int
	// PortInNodeName says the RM's scheduler names nodes host:port
	// (yarn.scheduler.include-port-in-node-name), so that is what the
	// blacklist takes; otherwise it takes hosts.
	PortInNodeName bool
	// Log reports launch failures and exclusions (nil: silent).
	Log func(format string, args ...any)

	mu         sync.Mutex
	responseID int32
	targets    map[scheduler.ProfileID]int
	live       map[string]*container // by container id
	gpus       *launcher.GPUIndices
	release    []*hadoopyarn.ContainerIdProto
	health     *nodeHealth
}

type container struct {
	node, name string // NodeId and node name (see nodeHealth)
	profile    scheduler.Profile
	gpus       []string
}

// askID is the priority and allocation-request id of profile p's ask.
func askID(p scheduler.ProfileID) int64 { return int64(p) + 1 }

// SetTarget changes how many executor containers of profile p to keep.
// Fewer than are running cancels outstanding requests; running ones stop
// only when their executors are released.
func (c *Containers) SetTarget(p scheduler.ProfileID, n int) {
	c.mu.Lock()
	c.targets[p] = n
	c.mu.Unlock()
}

// ProfileOf says which profile container id was asked for, while it runs.
func (c *Containers) ProfileOf(id scheduler.ExecutorID) (scheduler.ProfileID, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.live[string(id)]; k != nil {
		return k.profile.ID, true
	}
	return 0, false
}

// Init readies c for Run, SetTarget and ProfileOf.
func (c *Containers) Init() {
	if c.Heartbeat <= 0 {
		c.Heartbeat = time.Second
	}
	if c.InitialAllocation <= 0 {
		c.InitialAllocation = 200 * time.Millisecond
	}
	c.targets = map[scheduler.ProfileID]int{}
	for p, n := range c.Initial {
		c.targets[p] = n
	}
	c.live = map[string]*container{}
	c.gpus = launcher.NewGPUIndices()
	c.health = newNodeHealth(c.MaxFailuresPerNode, c.ExcludeTimeout, c.MaxFailures)
}

// Run heartbeats until ctx ends, or until executors fail so often that the
// application cannot go on.
func (c *Containers) Run(ctx context.Context) error {
	eager := c.InitialAllocation
	for {
		pending, err := c.heartbeat(ctx)
		if err != nil {
			return err
		}
		var wait time.Duration
		wait, eager = c.nextWait(pending, eager)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// nextWait is how long to wait before the next allocate, and the eager
// interval after it: while containers are owed, the eager interval,
// doubling up to Heartbeat; otherwise Heartbeat, the eager interval
// starting over.
func (c *Containers) nextWait(pending bool, eager time.Duration) (wait, next time.Duration) {
	if !pending {
		return c.Heartbeat, c.InitialAllocation
	}
	return min(eager, c.Heartbeat), min(2*eager, c.Heartbeat)
}

// request builds the next allocate from the ask table.
func (c *Containers) request(now time.Time) *hadoopyarn.AllocateRequestProto {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := &hadoopyarn.AllocateRequestProto{Release: c.release, ResponseId: proto.Int32(c.responseID)}
	c.release = nil
	for _, p := range c.Profiles {
		gpus := map[string]int64{yarn.GPU: int64(p.GPUs)}
		if p.GPUs == 0 {
			gpus = nil
		}
		ask := &hadoopyarn.ResourceRequestProto{
			Priority:            &hadoopyarn.PriorityProto{Priority: proto.Int32(int32(askID(p.ID)))},
			ResourceName:        proto.String("*"),
			Capability:          yarn.NewResource(p.MemoryMB, int32(p.Cores), gpus),
			NumContainers:       proto.Int32(int32(max(c.targets[p.ID]-c.liveOf(p.ID), 0))),
			RelaxLocality:       proto.Bool(true),
			AllocationRequestId: proto.Int64(askID(p.ID)),
		}
		if c.NodeLabel != "" {
			ask.NodeLabelExpression = proto.String(c.NodeLabel)
		}
		req.Ask = append(req.Ask, ask)
	}
	c.health.expire(now)
	if add, remove := c.health.changes(); len(add)+len(remove) > 0 {
		if len(add) > 0 && c.Log != nil {
			c.Log("excluding node(s) %v from the application's asks after %d executor failures on each", add, c.MaxFailuresPerNode)
		}
		req.BlacklistRequest = &hadoopyarn.ResourceBlacklistRequestProto{BlacklistAdditions: add, BlacklistRemovals: remove}
	}
	if c.Progress != nil {
		req.Progress = proto.Float32(c.Progress())
	}
	return req
}

func (c *Containers) heartbeat(ctx context.Context) (bool, error) {
	now := time.Now()
	req := c.request(now)
	resp, err := c.RM.Allocate(ctx, req)
	// An unset command reads as the enum's first value, AM_RESYNC: look
	// at the field itself.
	command := func(want hadoopyarn.AMCommandProto) bool {
		return err == nil && resp.AMCommand != nil && *resp.AMCommand == want
	}
	if command(hadoopyarn.AMCommandProto_AM_SHUTDOWN) {
		return false, errors.New("the ResourceManager told the ApplicationMaster to shut down (AM_SHUTDOWN): it no longer runs this attempt")
	}
	if (command(hadoopyarn.AMCommandProto_AM_RESYNC) || errors.Is(err, ipc.ErrApplicationMasterNotRegistered)) && c.Register != nil {
		// A restarted RM has forgotten us (older RMs say AM_RESYNC):
		// register again and start the conversation over; the next
		// allocate sends the whole ask, the releases and the exclusions
		// anew.
		if err := c.Register(ctx); err != nil {
			return false, fmt.Errorf("registering again after the RM forgot the application: %w", err)
		}
		c.mu.Lock()
		c.responseID = 0
		c.release = append(req.GetRelease(), c.release...)
		c.health.resend()
		c.mu.Unlock()
		return true, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		return false, fmt.Errorf("allocate: %w", err)
	}
	c.Launcher.AddTokens(resp.GetNmTokens())

	type ended struct {
		id   scheduler.ExecutorID
		loss scheduler.ExecutorLoss
	}
	var ends []ended
	var starts []func()
	c.mu.Lock()
	c.responseID = resp.GetResponseId()
	for _, st := range resp.GetCompletedContainerStatuses() {
		id := yarn.ContainerID(st.GetContainerId())
		k := c.forget(id)
		if k == nil {
			continue // released before it started: nothing ran there
		}
		loss, nodeFault := containerEnd(st)
		loss.Reason = fmt.Sprintf("container %s %s", id, loss.Reason)
		if nodeFault {
			c.health.failed(now, k.node, k.name, loss.Reason)
		}
		ends = append(ends, ended{scheduler.ExecutorID(id), loss})
	}
	for _, ct := range resp.GetAllocatedContainers() {
		if start := c.take(ctx, now, ct); start != nil {
			starts = append(starts, start)
		}
	}
	pending := false
	for _, p := range c.Profiles {
		pending = pending || c.targets[p.ID] > c.liveOf(p.ID)
	}
	giveUp := c.health.giveUp(int(resp.GetNumClusterNodes()))
	c.mu.Unlock()

	for _, e := range ends {
		if c.Ended != nil {
			c.Ended(e.id, e.loss)
		}
	}
	if giveUp != "" {
		return false, errors.New(giveUp)
	}
	for _, s := range starts {
		s()
	}
	return pending, nil
}

// take decides what to do with an allocated container: keep it (returning
// its launch) or release it — surplus, on an excluded node, or with no
// free GPU indices among ours there. Called with c.mu held.
func (c *Containers) take(ctx context.Context, now time.Time, ct *hadoopyarn.ContainerProto) func() {
	id := yarn.ContainerID(ct.GetId())
	node, name := nodemanager.NodeID(ct.GetNodeId()), ct.GetNodeId().GetHost()
	if c.PortInNodeName {
		name = node
	}
	c.health.seen(node, name)
	var prof *scheduler.Profile
	for i := range c.Profiles {
		if askID(c.Profiles[i].ID) == ct.GetAllocationRequestId() {
			prof = &c.Profiles[i]
		}
	}
	if prof == nil || c.liveOf(prof.ID) >= c.targets[prof.ID] || c.health.isExcluded(name) {
		c.release = append(c.release, ct.GetId())
		return nil
	}
	gpus, err := c.gpus.Assign(node, c.MaxGPUsPerNode, prof.GPUs)
	if err != nil {
		c.release = append(c.release, ct.GetId())
		return nil
	}
	c.live[id] = &container{node: node, name: name, profile: *prof, gpus: gpus}
	env := map[string]string{
		executor.EnvExecutorID:    id,
		executor.EnvExecutorCores: fmt.Sprint(prof.Cores),
		executor.EnvExecutorGPUs:  fmt.Sprint(prof.GPUs),
		executor.EnvAMGPUIndices:  strings.Join(gpus, ","),
	}
	return func() {
		c.Launcher.Start(ctx, ct, env, func(err error) {
			if err != nil && ctx.Err() == nil {
				c.launchFailed(ct, err)
			}
		})
	}
}

// liveOf counts the live containers of profile p. Called with c.mu held.
func (c *Containers) liveOf(p scheduler.ProfileID) int {
	n := 0
	for _, k := range c.live {
		if k.profile.ID == p {
			n++
		}
	}
	return n
}

// forget drops a live container, giving back its GPU indices; nil when it
// was not live. Called with c.mu held.
func (c *Containers) forget(id string) *container {
	k := c.live[id]
	if k == nil {
		return nil
	}
	c.gpus.Release(k.node, k.gpus)
	delete(c.live, id)
	return k
}

// launchFailed releases a container its NodeManager would not start and
// counts the failure against the node; the next heartbeat asks for
// another.
func (c *Containers) launchFailed(ct *hadoopyarn.ContainerProto, err error) {
	id := yarn.ContainerID(ct.GetId())
	c.mu.Lock()
	k := c.forget(id)
	if k != nil {
		c.release = append(c.release, ct.GetId())
		c.health.failed(time.Now(), k.node, k.name, fmt.Sprintf("container %s: launch failed: %v", id, err))
	}
	c.mu.Unlock()
	if k != nil && c.Log != nil {
		c.Log("container %s on %s: launch failed: %v", id, k.node, err)
	}
}
