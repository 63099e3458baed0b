package core

import (
	"fmt"
	"sort"
	"time"
)

// nodeHealth counts executor failures — launches a NodeManager refused,
// containers that ended for a reason other than the application's request
// or YARN's own housekeeping — per node name and in all. Like Spark's YARN
// allocator it excludes a node from the application's asks (the RM's
// blacklist) once it has had MaxPerNode failures, for Timeout, and it says
// when the application should give up: MaxFailures in all, or every node
// excluded. A node name is what the RM's scheduler calls a node: its host,
// or host:port where yarn.scheduler.include-port-in-node-name is set (as
// on the mini cluster, whose NodeManagers share a host); the blacklist
// takes those names. Time comes in as a value.
type nodeHealth struct {
	MaxPerNode  int // 0: never exclude
	Timeout     time.Duration
	MaxFailures int // 0: no limit

	total    int
	last     string               // the latest failure, for messages
	perNode  map[string]int       // failures since the node name was last excluded
	excluded map[string]time.Time // node name → until
	nodes    map[string]string    // NodeId → node name, of every node seen
	// additions and removals are the blacklist changes not yet sent.
	additions, removals []string
}

func newNodeHealth(maxPerNode int, timeout time.Duration, maxFailures int) *nodeHealth {
	return &nodeHealth{MaxPerNode: maxPerNode, Timeout: timeout, MaxFailures: maxFailures,
		perNode: map[string]int{}, excluded: map[string]time.Time{}, nodes: map[string]string{}}
}

// seen records a node (NodeId, host:port) the RM gave a container on,
// and its name.
func (h *nodeHealth) seen(node, name string) { h.nodes[node] = name }

// failed records an executor failure on node (NodeId) named name.
func (h *nodeHealth) failed(now time.Time, node, name, why string) {
	h.seen(node, name)
	h.total++
	h.last = fmt.Sprintf("%s (node %s)", why, node)
	h.perNode[name]++
	if h.MaxPerNode > 0 && h.perNode[name] >= h.MaxPerNode {
		if _, already := h.excluded[name]; !already {
			h.additions = append(h.additions, name)
		}
		h.excluded[name] = now.Add(h.Timeout)
		h.perNode[name] = 0
	}
}

// isExcluded reports whether the node named name takes no executors now.
func (h *nodeHealth) isExcluded(name string) bool {
	_, ok := h.excluded[name]
	return ok
}

// expire lifts the exclusions that have run their time.
func (h *nodeHealth) expire(now time.Time) {
	for name, until := range h.excluded {
		if !now.Before(until) {
			delete(h.excluded, name)
			h.removals = append(h.removals, name)
		}
	}
	sort.Strings(h.removals)
}

// changes returns the blacklist changes to send, once.
func (h *nodeHealth) changes() (add, remove []string) {
	add, remove = h.additions, h.removals
	h.additions, h.removals = nil, nil
	return add, remove
}

// giveUp says why the application cannot go on, or "": too many failures,
// or every one of the cluster's nodes excluded (several NodeManagers may
// share one excluded host name).
func (h *nodeHealth) giveUp(clusterNodes int) string {
	if h.MaxFailures > 0 && h.total >= h.MaxFailures {
		return fmt.Sprintf("%d executor failures, spindle.executor.maxNumFailures (%d) reached; the last: %s", h.total, h.MaxFailures, h.last)
	}
	if len(h.excluded) == 0 || clusterNodes <= 0 {
		return ""
	}
	out := 0
	for _, name := range h.nodes {
		if h.isExcluded(name) {
			out++
		}
	}
	if out < clusterNodes {
		return ""
	}
	names := make([]string, 0, len(h.excluded))
	for name := range h.excluded {
		names = append(names, name)
	}
	sort.Strings(names)
	return fmt.Sprintf("every node is excluded after executor failures (%v, spindle.excludeOnFailure.application.maxFailedExecutorsPerNode %d); the last: %s", names, h.MaxPerNode, h.last)
}

// resend queues every current exclusion again, for an RM that restarted
// and forgot them.
func (h *nodeHealth) resend() {
	h.additions = h.additions[:0]
	for name := range h.excluded {
		h.additions = append(h.additions, name)
	}
	sort.Strings(h.additions)
	h.removals = nil
}
