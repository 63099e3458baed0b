package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// containers is the core's side of the RM: the ask table (a target per
// profile), the live containers and their GPU indices, node health, and
// the allocate heartbeat's pace.
type containers struct {
	cfg      *ContainerConfig
	profiles []scheduler.Profile
	targets  map[scheduler.ProfileID]int
	live     map[string]*container // by container id
	devices  *DeviceIndices
	health   *nodeHealth
	// release waits for the next allocate; inflight is the allocate out
	// now (nil: none), whose releases an RM that restarted never saw.
	release  []string
	inflight *AllocateRequest
	// nextAt is when the next allocate is due; eager the interval while
	// containers are owed, doubling up to Heartbeat.
	nextAt time.Time
	eager  time.Duration
	starts []ContainerStart
	asks   *askTable
	// releaseNow: a drained container's release waits, and YARN's
	// deadline with it (drain.go): the next allocate goes as soon as none
	// is out.
	releaseNow bool
	// limit, in fine mode, bounds each profile's containers by its tasks
	// running or waiting (Core.limitToTasks); nil otherwise.
	limit map[scheduler.ProfileID]int
	// gangFloor is, for the profile of the gang acquiring now, the
	// executors it needs at once (gang.go): no fewer are wanted.
	gangFloor map[scheduler.ProfileID]int
	// decommissioning are the nodes (NodeId) being decommissioned
	// (decommission.go): they take no new container.
	decommissioning map[string]bool
}

type container struct {
	node, name string // NodeId and node name (see nodeHealth)
	profile    scheduler.Profile
	gpus       []string
	accels     []scheduler.Assigned // indices of each accelerator
	// leaving: its executor was told to stop (retired or released), or
	// it drains, so it no longer serves its profile's target, though it
	// holds its GPUs until YARN says it completed.
	leaving bool
	// drain, when set, is its plan for going back to YARN (drain.go).
	drain *drain
}

func newContainers(cfg *ContainerConfig, profiles []scheduler.Profile, alloc *dynalloc.Manager) *containers {
	k := &containers{cfg: cfg, profiles: profiles, targets: map[scheduler.ProfileID]int{}, live: map[string]*container{}, asks: newAskTable(),
		decommissioning: map[string]bool{}, devices: NewDeviceIndices(), health: newNodeHealth(cfg.MaxFailuresPerNode, cfg.ExcludeTimeout, cfg.MaxFailures), eager: cfg.InitialAllocation}
	for _, p := range profiles {
		k.targets[p.ID] = cfg.Initial[p.ID]
		if alloc != nil {
			k.targets[p.ID] = alloc.Target(p.ID)
		}
	}
	return k
}

// profileOf says which profile a live container was asked for.
func (k *containers) profileOf(id string) (scheduler.ProfileID, bool) {
	if x := k.live[id]; x != nil {
		return x.profile.ID, true
	}
	return 0, false
}

// liveOf counts profile p's containers that serve its target: live and
// not leaving.
func (k *containers) liveOf(p scheduler.ProfileID) int {
	n := 0
	for _, x := range k.live {
		if x.profile.ID == p && !x.leaving {
			n++
		}
	}
	return n
}

// leave marks a live container as leaving: its executor was told to stop.
// Counting it until it completes would lower the want meanwhile, and a
// lowered ask races the RM's allocations against the higher one: the RM
// may have filled it already, and the lower count is then allocated again.
func (k *containers) leave(id string) {
	if x := k.live[id]; x != nil {
		x.leaving = true
	}
}

// wanted is how many containers profile p wants: its target, and in fine
// mode no more than its tasks that run or wait. An executor's task done,
// its container ends with it: no ramp-down delay of dynamic allocation
// may keep asking for one in its place.
func (k *containers) wanted(p scheduler.ProfileID) int {
	n := max(k.targets[p], k.gangFloor[p])
	if k.limit != nil {
		n = min(n, k.limit[p])
	}
	return n
}

// limitToTasks sets, in fine mode, each profile's limit to its tasks that
// run or wait: a container runs one task.
func (c *Core) limitToTasks(now time.Time) {
	if c.yarn == nil || !c.cfg.OneTaskPerExecutor {
		return
	}
	if c.yarn.limit == nil {
		c.yarn.limit = map[scheduler.ProfileID]int{}
	}
	for _, p := range c.cfg.Profiles {
		n := 0
		for _, d := range c.sched.Demand(now, p.ID) {
			n += d.Running + d.Pending
		}
		c.yarn.limit[p.ID] = n
	}
}

// owed says whether any profile has fewer containers than it wants.
func (k *containers) owed() bool {
	for _, p := range k.profiles {
		if k.wanted(p.ID) > k.liveOf(p.ID) {
			return true
		}
	}
	return false
}

// request builds the next allocate and marks it out: the asks that bring
// each profile's outstanding count to what it wants (asks.go), releases,
// and exclusion changes.
func (k *containers) request(now time.Time, progress float32) *AllocateRequest {
	req := &AllocateRequest{Release: k.release, Progress: progress}
	k.release, k.releaseNow = nil, false
	for _, p := range k.profiles {
		req.Asks = append(req.Asks, k.ask(p, max(k.wanted(p.ID)-k.liveOf(p.ID), 0))...)
	}
	k.health.expire(now)
	req.Exclude, req.Include = k.health.changes()
	k.inflight = req
	return req
}

// Container is one the RM allocated.
type Container struct {
	ID string
	// Node is its NodeManager (host:port); NodeName what the RM's
	// scheduler calls the node (host, or host:port where nodes carry
	// their port), which exclusions name.
	Node, NodeName string
	// Ask is the allocation request id of the ask it fills, as the RM
	// echoes it.
	Ask int64
}

// Completion is a container that ended, with its exit status as YARN
// reports it (exit_status.go) and its diagnostics.
type Completion struct {
	Container   string
	ExitStatus  int32
	Diagnostics string
}

// AllocateResult is the RM's answer to an allocate.
type AllocateResult struct {
	// Preempted are the containers the RM's PreemptionMessage names, in
	// its strict and negotiable contracts alike: it will kill them unless
	// they are released (preemption.go). It names them again in every
	// answer until they are gone.
	Preempted    []string
	Allocated    []Container
	Completed    []Completion
	ClusterNodes int
	Nodes        []NodeUpdate
}

// Allocated applies the RM's answer to the allocate out: the executors of
// nodes that are gone are lost (node_loss.go), before the completions
// their containers may come with; containers that ended are blamed
// (blame.go) and counted against their nodes; new ones are started, or
// released when surplus, on an excluded node, or with no free GPU
// indices among the application's there.
func (c *Core) Allocated(now time.Time, res AllocateResult) {
	k := c.yarn
	if k == nil || k.inflight == nil {
		return
	}
	c.releasedAM(k.inflight)
	k.inflight = nil
	c.nodesLost(now, res.Nodes)
	for _, done := range res.Completed {
		x := k.forget(done.Container)
		if x == nil {
			continue // released before it started: nothing ran there
		}
		if c.releasedCut(done) {
			continue // its NodeManager may not have stopped it yet (cut.go)
		}
		loss, nodeFault := containerEnd(done.ExitStatus, done.Diagnostics)
		loss.Reason = fmt.Sprintf("container %s %s", done.Container, loss.Reason)
		if x.drain != nil {
			loss, nodeFault = drainedEnd(done.Container, x.drain), false
		}
		if nodeFault {
			k.health.failed(now, x.node, x.name, loss.Reason)
		}
		c.executorEnded(now, scheduler.ExecutorID(done.Container), loss)
	}
	// The containers the RM wants back, and those on nodes being
	// decommissioned, drain (drain.go); a drained container's end above
	// blamed nobody; a container kept below is none on such a node.
	c.preempted(now, res.Preempted)
	c.decommissioned(now, res.Nodes)
	c.limitToTasks(now)
	for _, ct := range res.Allocated {
		c.keep(ct)
	}
	if why := k.health.giveUp(res.ClusterNodes); why != "" {
		c.Fail(now, why)
	}
	wait := k.cfg.Heartbeat
	if k.owed() {
		wait = min(k.eager, k.cfg.Heartbeat)
		k.eager = min(2*k.eager, k.cfg.Heartbeat)
	} else {
		k.eager = k.cfg.InitialAllocation
	}
	k.nextAt = now.Add(wait)
}

// keep keeps an allocated container, or releases it.
func (c *Core) keep(ct Container) {
	k := c.yarn
	k.health.seen(ct.Node, ct.NodeName)
	var prof *scheduler.Profile
	if id, ok := k.asks.arrived(ct.Ask); ok {
		for i := range k.profiles {
			if k.profiles[i].ID == id {
				prof = &k.profiles[i]
			}
		}
	}
	why := ""
	var gpus []string
	var accels []scheduler.Assigned
	switch {
	case prof == nil:
		why = fmt.Sprintf("it fills no open ask (allocation request id %d): surplus", ct.Ask)
	case k.liveOf(prof.ID) >= k.wanted(prof.ID):
		why = fmt.Sprintf("surplus: %d of %d wanted are held", k.liveOf(prof.ID), k.wanted(prof.ID))
	case k.health.isExcluded(ct.NodeName):
		why = "its node is excluded"
	case k.decommissioning[ct.Node]:
		why = "its node is being decommissioned"
	default:
		var err error
		if gpus, accels, err = k.assignDevices(ct.Node, *prof); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		k.release = append(k.release, ct.ID)
		c.notice(Notice{Container: ct.ID, Node: ct.Node, Message: "container released: " + why})
		return
	}
	k.live[ct.ID] = &container{node: ct.Node, name: ct.NodeName, profile: *prof, gpus: gpus, accels: accels}
	k.starts = append(k.starts, ContainerStart{Container: ct.ID, Node: ct.Node, Profile: *prof, GPUIndices: gpus, AccelIndices: accels})
}

// forget drops a live container, giving back its GPU indices; nil when it
// was not live.
func (k *containers) forget(id string) *container {
	x := k.live[id]
	if x == nil {
		return nil
	}
	k.releaseDevices(x.node, x.gpus, x.accels)
	delete(k.live, id)
	return x
}

// LaunchFailed releases a container its NodeManager would not start and
// counts the failure against its node; the next allocate asks for
// another.
func (c *Core) LaunchFailed(now time.Time, id string, why string) {
	k := c.yarn
	if k == nil {
		return
	}
	x := k.forget(id)
	if x == nil {
		return
	}
	k.release = append(k.release, id)
	k.health.failed(now, x.node, x.name, fmt.Sprintf("container %s: launch failed: %s", id, why))
	c.notice(Notice{Warning: true, Container: id, Node: x.node, Message: "launch failed: " + why})
}

// Resynced says the AM registered again after the RM forgot it (an RM
// restart or failover): the allocate that was out is void, and the next
// sends the whole ask, its releases and every exclusion anew, at once.
func (c *Core) Resynced(now time.Time) {
	k := c.yarn
	if k == nil {
		return
	}
	if k.inflight != nil {
		k.release = append(k.inflight.Release, k.release...)
		k.inflight = nil
	}
	k.health.resend()
	k.asks.forget() // the RM forgot them with the application: ask anew
	k.nextAt = now
	c.notice(Notice{Warning: true, Message: "registered again with the ResourceManager, which had forgotten the application; asks and exclusions sent anew"})
}

// allocate runs dynamic allocation on the scheduler's demand: each
// profile's target moves, and the idle executors it releases are told to
// stop.
func (c *Core) allocate(now time.Time) {
	byProfile := map[scheduler.ProfileID][]dynalloc.Executor{}
	for _, st := range c.sched.Executors() {
		byProfile[st.Profile] = append(byProfile[st.Profile], dynalloc.Executor{ID: st.ID, Running: st.Running, Idle: st.IdleSince})
	}
	profiles := make([]dynalloc.Profile, len(c.cfg.Profiles))
	for i, p := range c.cfg.Profiles {
		profiles[i] = dynalloc.Profile{ID: p.ID, Demand: c.sched.Demand(now, p.ID), Executors: byProfile[p.ID], OnDemand: c.onDemand(p.ID)}
	}
	for _, d := range c.alloc.Update(now, profiles) {
		if old := c.yarn.targets[d.Profile]; old != d.Total {
			c.notice(Notice{Message: fmt.Sprintf("dynamic allocation: profile %d target %d → %d executors", d.Profile, old, d.Total)})
		}
		c.yarn.targets[d.Profile] = d.Total
		ids := append([]scheduler.ExecutorID(nil), d.Release...)
		sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
		for _, id := range ids {
			if x := c.execs[id]; x != nil {
				c.stop(x, "idle: released by dynamic allocation")
			}
		}
	}
}
