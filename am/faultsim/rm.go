package faultsim

import (
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/fakerm"
)

// slotsPerNode is how many executors (of two GPUs) a node holds.
const slotsPerNode = 2

// node is a NodeManager's host.
type node struct {
	i    int
	name string
	up   bool // its NodeManager runs
	// known is when the RM knows the node: after an RM restart, once
	// its NodeManager has registered again.
	known time.Time
}

// container is one the RM granted, with its executor once started.
type container struct {
	id      string
	node    *node
	attempt int // the AM attempt it was granted to
	gpus    []string
	held    bool // the RM holds it: not released, not completed
	x       *executor
	// stopped: its processes are gone (its NodeManager killed it, its
	// node went, or its executor exited).
	stopped bool
}

// rmSim is the ResourceManager: fakerm's asks and grants, the nodes,
// the containers it keeps across AM attempts, and its restarts.
type rmSim struct {
	w          *world
	fake       fakerm.RM
	nodes      []*node
	containers map[string]*container
	order      []*container // as granted
	// registered is the AM attempt registered, 0 once a restart forgot it.
	registered int
	// updates are the nodes' changes of state, in order; reported has,
	// per attempt, how many it was told of.
	updates  []core.NodeUpdate
	reported map[int]int
	restarts int
	// named are, per attempt, the earlier attempts' containers named to
	// it as kept.
	named map[int]map[string]bool
}

func newRM(w *world) *rmSim {
	rm := &rmSim{w: w, containers: map[string]*container{}, reported: map[int]int{}, named: map[int]map[string]bool{}}
	for i := range w.s.Nodes {
		rm.nodes = append(rm.nodes, &node{i: i, name: fmt.Sprintf("node%d", i), up: true, known: epoch})
	}
	return rm
}

func (n *node) id() string { return n.name + ":8041" }

// register registers attempt n, returning the containers of earlier
// attempts it keeps for it (those on nodes it knows now: the others it
// names in later allocates).
func (rm *rmSim) register(n int) []*container {
	rm.registered = n
	rm.fake.Forget() // an attempt's asks are its own
	rm.reported[n] = len(rm.updates)
	rm.named[n] = map[string]bool{}
	return rm.keptFor(n)
}

// keptFor names to attempt n the earlier attempts' containers it holds
// on nodes it knows, not named to n before.
func (rm *rmSim) keptFor(n int) []*container {
	var out []*container
	for _, c := range rm.sorted() {
		if c.held && c.attempt < n && !rm.named[n][c.id] && !c.node.known.After(rm.w.now) {
			rm.named[n][c.id] = true
			out = append(out, c)
		}
	}
	return out
}

// sorted are the containers in the order granted.
func (rm *rmSim) sorted() []*container { return rm.order }

// allocate answers attempt n's allocate: resync when the RM forgot it
// (it registers again); else releases, asks, grants, completions, node
// changes, and containers of earlier attempts it learnt of since.
func (rm *rmSim) allocate(n int, req *core.AllocateRequest) (res core.AllocateResult, kept []*container, resync bool) {
	if rm.registered != n {
		rm.registered = n
		return res, nil, true
	}
	for _, id := range req.Release {
		rm.release(id)
	}
	rm.fake.Update(rm.w.now, req.Asks)
	res.Allocated = rm.grant(n)
	res.Completed = rm.fake.Completed()
	res.Nodes = rm.updates[rm.reported[n]:]
	rm.reported[n] = len(rm.updates)
	res.ClusterNodes = len(rm.nodes)
	return res, rm.keptFor(n), false
}

// release gives a container back: the RM says it completed at once, and
// its NodeManager kills it a while later.
func (rm *rmSim) release(id string) {
	c := rm.containers[id]
	if c == nil || !c.held {
		return
	}
	rm.complete(c, core.ExitAborted, "Container released by the application")
	rm.w.after(rm.w.between(200*time.Millisecond, 5*time.Second), func() {
		if c.node.up {
			rm.w.logf("NodeManager %s kills released container %s", c.node.name, c.id)
			c.stop("released")
		}
	})
}

// complete has the RM report a container completed.
func (rm *rmSim) complete(c *container, status int32, diag string) {
	if !c.held {
		return
	}
	c.held = false
	rm.fake.End(core.Completion{Container: c.id, ExitStatus: status, Diagnostics: diag})
}

// grant hands out what is due, each container on the known node with
// the most free slots.
func (rm *rmSim) grant(n int) []core.Container {
	var out []core.Container
	for {
		nd := rm.freeNode()
		if nd == nil {
			return out
		}
		rm.fake.Capacity = rm.fake.Held() + 1
		got := rm.fake.Grant(rm.w.now)
		if len(got) == 0 {
			return out
		}
		ct := got[0]
		c := &container{id: ct.ID, node: nd, attempt: n, held: true}
		rm.containers[ct.ID] = c
		rm.order = append(rm.order, c)
		rm.w.logf("RM grants %s on %s to attempt %d", c.id, nd.name, n)
		out = append(out, core.Container{ID: ct.ID, Node: nd.id(), NodeName: nd.name, Ask: ct.Ask})
	}
}

func (rm *rmSim) freeNode() *node {
	var best *node
	bestFree := 0
	for _, nd := range rm.nodes {
		if !nd.up || nd.known.After(rm.w.now) {
			continue
		}
		free := slotsPerNode
		for _, c := range rm.order {
			if c.node == nd && (c.held || !c.stopped) {
				free--
			}
		}
		if free > bestFree {
			best, bestFree = nd, free
		}
	}
	return best
}

// restart restarts the RM: it forgets the application's registration
// and asks, and knows each node again once its NodeManager registers.
func (rm *rmSim) restart() {
	rm.registered = 0
	rm.restarts++
	rm.fake.Forget()
	for _, nd := range rm.nodes {
		if nd.up {
			nd.known = rm.w.now.Add(rm.w.between(0, 10*time.Second))
		}
	}
}

// loseNode takes node i away with its containers; a fresh NodeManager
// comes back on it later.
func (rm *rmSim) loseNode(i int) {
	nd := rm.nodes[i%len(rm.nodes)]
	if !nd.up {
		return
	}
	nd.up = false
	for _, c := range rm.sorted() {
		if c.node == nd {
			c.stop("its node was lost")
			rm.complete(c, core.ExitAborted, "Container released on a *lost* node")
		}
	}
	rm.updates = append(rm.updates, core.NodeUpdate{Node: nd.id(), NodeName: nd.name, State: core.NodeLost})
	rm.w.after(rm.w.between(45*time.Second, 90*time.Second), func() {
		nd.up, nd.known = true, rm.w.now
		rm.updates = append(rm.updates, core.NodeUpdate{Node: nd.id(), NodeName: nd.name, State: core.NodeRunning})
		rm.w.logf("node %s is back", nd.name)
	})
}
