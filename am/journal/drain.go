package journal

import "fmt"

// Drain is an executor whose container is going back to YARN (preempted,
// or on a node being decommissioned: am/core's drain.go): the next
// attempt, adopting it, keeps draining it rather than giving it tasks.
// The journal holds one per draining executor it knows, and forgets it
// with the executor.
type Drain struct {
	Container string `json:"container"`
	Reason    string `json:"reason"`
	// ReleaseBy is when the container goes whatever runs there, in Unix
	// milliseconds: an absolute time, as the next attempt starts later.
	// 0 for a node decommissioned with no timeout, whose tasks run to
	// their end.
	ReleaseBy int64 `json:"releaseBy,omitempty"`
	// Decommissioning says its node is being decommissioned: the next
	// attempt takes no new container there either.
	Decommissioning bool `json:"decommissioning,omitempty"`
}

// drain applies a drain entry: one of an executor the journal does not
// know (it registered with no rejoin address, or is gone) is of no use
// to the next attempt, which cannot adopt it, and is passed over.
func (s *State) drain(d Drain) error {
	if d.Container == "" || d.ReleaseBy < 0 {
		return fmt.Errorf("a drain of container %q, released by %d", d.Container, d.ReleaseBy)
	}
	if _, ok := s.Executors[d.Container]; !ok {
		return nil
	}
	if s.Drains == nil {
		s.Drains = map[string]Drain{}
	}
	s.Drains[d.Container] = d
	return nil
}
