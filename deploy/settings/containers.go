package settings

import (
	"math"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
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
}

// ContainerPlacement reads the executors' node label and whether the RM
// names nodes with their ports.
func ContainerPlacement(conf *config.Config, hconf *hadoopconf.Conf) (Placement, error) {
	label, err := conf.String("spindle.yarn.executor.nodeLabelExpression")
	if err != nil {
		return Placement{}, err
	}
	p := Placement{NodeLabel: label}
	p.PortInNodeName, err = hconf.GetBool("yarn.scheduler.include-port-in-node-name", false)
	return p, err
}
