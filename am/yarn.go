package am

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/launcher"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Containers keeps an ApplicationMaster's executors running on YARN: it
// asks the RM for Executors containers of the profile's size (yarn.io/gpu
// included), starts `spindle executor` in each through its NodeManager, and
// asks again for those that end. Executors then register with the driver
// like local ones.
type Containers struct {
	RM        *yarn.AMRMClient
	NMOptions ipc.Options // how to reach NodeManagers (NMTokens are added per node)
	Profile   scheduler.Profile
	// Executors is how many executor containers to keep; SetTarget moves it
	// (dynamic allocation).
	Executors int
	// MaxGPUsPerNode is the most GPUs a node has (the maximum allocation).
	MaxGPUsPerNode int
	// Launch is the executors' launch context, less the parts each
	// container gets of its own (GPU list, id).
	Launch         *hadoopyarn.ContainerLaunchContextProto
	NodeLabel      string
	Heartbeat      time.Duration // allocate interval once nothing is pending (default 1s)
	OnLaunchFailed func(container string, err error)
	// Register registers the AM again: after an RM restart (or failover)
	// allocate answers ApplicationMasterNotRegistered until it does.
	Register func(ctx context.Context) error
	// MaxParallelLaunches bounds concurrent startContainers calls
	// (default 8).
	MaxParallelLaunches int
	// Progress reports the job's progress in [0,1] for each allocate, which
	// the RM shows as the application's (nil: 0).
	Progress func() float32

	mu         sync.Mutex
	responseID int32
	nmTokens   map[string]*hadoopcommon.TokenProto
	live       map[string]*container // by container id
	gpus       *launcher.GPUIndices
	release    []*hadoopyarn.ContainerIdProto
	launches   chan struct{} // a slot per launch in flight
}

// askID is the allocation-request id of the executors' ask; the RM echoes
// it on the containers it allocates for it.
const askID = 1

type container struct {
	node string
	gpus []string
}

// SetTarget changes how many executor containers to keep. Fewer than are
// running cancels outstanding requests; running ones stop only when their
// executors are released.
func (c *Containers) SetTarget(n int) {
	c.mu.Lock()
	c.Executors = n
	c.mu.Unlock()
}

// Run heartbeats until ctx ends.
func (c *Containers) Run(ctx context.Context) error {
	if c.Heartbeat <= 0 {
		c.Heartbeat = time.Second
	}
	c.nmTokens = map[string]*hadoopcommon.TokenProto{}
	c.live = map[string]*container{}
	c.gpus = launcher.NewGPUIndices()
	if c.MaxParallelLaunches <= 0 {
		c.MaxParallelLaunches = 8
	}
	c.launches = make(chan struct{}, c.MaxParallelLaunches)
	for {
		pending, err := c.heartbeat(ctx)
		if err != nil {
			return err
		}
		// Eager while containers are owed, then at the configured interval.
		wait := c.Heartbeat
		if pending {
			wait = 200 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

func (c *Containers) heartbeat(ctx context.Context) (bool, error) {
	c.mu.Lock()
	want := c.Executors - len(c.live)
	release := c.release
	c.release = nil
	respID := c.responseID
	c.mu.Unlock()
	ask := &hadoopyarn.ResourceRequestProto{
		Priority:            &hadoopyarn.PriorityProto{Priority: proto.Int32(1)},
		ResourceName:        proto.String("*"),
		Capability:          yarn.NewResource(c.Profile.MemoryMB, int32(c.Profile.Cores), map[string]int64{yarn.GPU: int64(c.Profile.GPUs)}),
		NumContainers:       proto.Int32(int32(max(want, 0))),
		RelaxLocality:       proto.Bool(true),
		AllocationRequestId: proto.Int64(askID),
	}
	if c.Profile.GPUs == 0 {
		ask.Capability = yarn.NewResource(c.Profile.MemoryMB, int32(c.Profile.Cores), nil)
	}
	if c.NodeLabel != "" {
		ask.NodeLabelExpression = proto.String(c.NodeLabel)
	}
	var progress float32
	if c.Progress != nil {
		progress = c.Progress()
	}
	resp, err := c.RM.Allocate(ctx, &hadoopyarn.AllocateRequestProto{Ask: []*hadoopyarn.ResourceRequestProto{ask}, Release: release, ResponseId: proto.Int32(respID), Progress: proto.Float32(progress)})
	if errors.Is(err, ipc.ErrApplicationMasterNotRegistered) && c.Register != nil {
		// A restarted RM has forgotten us: register again and start the
		// conversation over; the next allocate sends the whole ask anew.
		if err := c.Register(ctx); err != nil {
			return false, fmt.Errorf("registering again after the RM forgot the application: %w", err)
		}
		c.mu.Lock()
		c.responseID = 0
		c.release = append(release, c.release...)
		c.mu.Unlock()
		return true, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		return false, fmt.Errorf("allocate: %w", err)
	}
	c.mu.Lock()
	c.responseID = resp.GetResponseId()
	for _, t := range resp.GetNmTokens() {
		c.nmTokens[fmt.Sprintf("%s:%d", t.GetNodeId().GetHost(), t.GetNodeId().GetPort())] = t.GetToken()
	}
	for _, st := range resp.GetCompletedContainerStatuses() {
		id := yarn.ContainerID(st.GetContainerId())
		if k := c.live[id]; k != nil {
			c.gpus.Release(k.node, k.gpus)
			delete(c.live, id)
		}
	}
	var starts []func()
	for _, ct := range resp.GetAllocatedContainers() {
		id := yarn.ContainerID(ct.GetId())
		node := fmt.Sprintf("%s:%d", ct.GetNodeId().GetHost(), ct.GetNodeId().GetPort())
		if len(c.live) >= c.Executors {
			c.release = append(c.release, ct.GetId()) // surplus
			continue
		}
		gpus, err := c.gpus.Assign(node, c.MaxGPUsPerNode, c.Profile.GPUs)
		if err != nil {
			c.release = append(c.release, ct.GetId())
			continue
		}
		c.live[id] = &container{node: node, gpus: gpus}
		token := c.nmTokens[node]
		ct := ct
		starts = append(starts, func() { c.start(ctx, ct, id, node, token, gpus) })
	}
	pending := c.Executors > len(c.live)
	c.mu.Unlock()
	for _, s := range starts {
		go func() {
			c.launches <- struct{}{}
			defer func() { <-c.launches }()
			s()
		}()
	}
	return pending, nil
}

// start launches `spindle executor` in container ct with its GPU list.
func (c *Containers) start(ctx context.Context, ct *hadoopyarn.ContainerProto, id, node string, token *hadoopcommon.TokenProto, gpus []string) {
	fail := func(err error) {
		c.mu.Lock()
		if k := c.live[id]; k != nil {
			c.gpus.Release(k.node, k.gpus)
			delete(c.live, id)
		}
		c.release = append(c.release, ct.GetId())
		c.mu.Unlock()
		if c.OnLaunchFailed != nil {
			c.OnLaunchFailed(id, err)
		}
	}
	if token == nil {
		fail(fmt.Errorf("no NMToken for node %s", node))
		return
	}
	nm, err := yarn.NewNMClient(node, token, c.NMOptions)
	if err != nil {
		fail(err)
		return
	}
	defer nm.Close()
	launch := proto.Clone(c.Launch).(*hadoopyarn.ContainerLaunchContextProto)
	env := map[string]string{
		"SPINDLE_EXECUTOR_ID":            id,
		"SPINDLE_EXECUTOR_GPU_ADDRESSES": strings.Join(gpus, ","),
		"SPINDLE_EXECUTOR_GPUS":          fmt.Sprint(len(gpus)),
	}
	for k, v := range env {
		launch.Environment = append(launch.Environment, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(v)})
	}
	resp, err := nm.StartContainers(ctx, &hadoopyarn.StartContainersRequestProto{StartContainerRequest: []*hadoopyarn.StartContainerRequestProto{{
		ContainerLaunchContext: launch, ContainerToken: ct.GetContainerToken(),
	}}})
	if err != nil {
		fail(err)
		return
	}
	if f := resp.GetFailedRequests(); len(f) > 0 {
		fail(fmt.Errorf("%s", f[0].GetException().GetMessage()))
	}
}
