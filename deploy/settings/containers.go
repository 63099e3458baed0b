package settings

import (
	"fmt"
	"math"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// containerConfig reads how many executors of the default profile to keep
// at first (spindle.executor.instances; with dynamic allocation the core
// takes its initial target instead), the allocate heartbeat, and when
// failing executors exclude a node or fail the application.
func containerConfig(conf *config.Config, first scheduler.ProfileID, dynamic bool) (core.ContainerConfig, error) {
	s := Read(conf)
	var c core.ContainerConfig
	instances := s.Int("spindle.executor.instances")
	perNode := s.Int("spindle.excludeOnFailure.application.maxFailedExecutorsPerNode")
	if !s.Bool("spindle.yarn.executor.launch.excludeOnFailure.enabled") {
		perNode = 0
	}
	c.MaxFailuresPerNode = perNode
	c.MaxFailures = s.Int("spindle.executor.maxNumFailures")
	c.ExcludeTimeout = s.Duration("spindle.excludeOnFailure.timeout")
	c.Heartbeat = s.Duration("spindle.yarn.scheduler.heartbeat.interval-ms")
	c.InitialAllocation = s.Duration("spindle.yarn.scheduler.initial-allocation.interval")
	limit := instances // the executors maxNumFailures scales with
	c.Initial = map[scheduler.ProfileID]int{first: instances}
	if dynamic {
		limit = s.Int("spindle.dynamicAllocation.maxExecutors")
	}
	if s.Err() != nil {
		return c, s.Err()
	}
	if c.MaxFailures == 0 && limit <= math.MaxInt/2 {
		c.MaxFailures = max(2*limit, 3) // Spark's default
	}
	return c, nil
}

// Placement is where the AM's executor containers go, as YARN names it.
type Placement struct {
	NodeLabel      string
	PortInNodeName bool
	// Constraints are what spindle.yarn.executor.maxPerNode, .placement
	// and .nodeAttributes ask: when they ask anything, the executors are
	// asked for as SchedulingRequests (docs/yarn.md, Placement).
	Constraints yarn.Placement
}

// PlacementKeys names the keys that ask for placement constraints, for
// the errors that refuse them.
const PlacementKeys = "spindle.yarn.executor.maxPerNode, .placement and .nodeAttributes"

// ContainerPlacement reads the executors' node label, their placement
// constraints and whether the RM names nodes with their ports.
func ContainerPlacement(conf *config.Config, hconf *hadoopconf.Conf) (Placement, error) {
	label, err := conf.String("spindle.yarn.executor.nodeLabelExpression")
	if err != nil {
		return Placement{}, err
	}
	p := Placement{NodeLabel: label}
	if p.Constraints, err = placementConstraints(conf); err != nil {
		return p, err
	}
	p.PortInNodeName, err = hconf.GetBool("yarn.scheduler.include-port-in-node-name", false)
	return p, err
}

// placementConstraints reads the placement keys. A node label beside them
// goes in the constraint as YARN's node partition (a SchedulingRequest
// has no label of its own, am.ProfilePlacement), which names one label:
// an expression of another form is refused rather than matched by no
// node.
func placementConstraints(conf *config.Config) (yarn.Placement, error) {
	s := Read(conf)
	p := yarn.Placement{MaxPerNode: s.Int("spindle.yarn.executor.maxPerNode"), Affinity: yarn.Affinity(s.Enum("spindle.yarn.executor.placement"))}
	expr := s.String("spindle.yarn.executor.nodeAttributes")
	if s.Err() != nil {
		return p, s.Err()
	}
	if expr != "" {
		terms, err := yarn.ParseNodeAttributes(expr)
		if err != nil {
			return p, fmt.Errorf("spindle.yarn.executor.nodeAttributes: %w", err)
		}
		p.Attributes = terms
	}
	if p.Constrained() {
		if label, _ := conf.String("spindle.yarn.executor.nodeLabelExpression"); label != "" && !plainLabel(label) {
			return p, fmt.Errorf("spindle.yarn.executor.nodeLabelExpression=%s: beside %s the label goes in the placement constraints as YARN's node partition, which is one label (a letter or digit, then letters, digits, '-' or '_')", label, PlacementKeys)
		}
	}
	return p, nil
}

// plainLabel says whether s is one YARN node label, as a node partition
// names it.
func plainLabel(s string) bool {
	for i, c := range s {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && (i == 0 || c != '-' && c != '_') {
			return false
		}
	}
	return s != ""
}
