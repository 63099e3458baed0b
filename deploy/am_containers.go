package deploy

import (
	"math"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// amContainers is what configuration decides of the AM's executor
// containers.
type amContainers struct {
	core.ContainerConfig
	NodeLabel      string
	PortInNodeName bool
}

// containerPolicy reads how many executors of the default profile to keep
// at first (spindle.executor.instances; with dynamic allocation the core
// takes its initial target instead), the node label, the heartbeat, and
// when failing executors exclude a node or fail the application.
func containerPolicy(conf *config.Config, hconf *hadoopconf.Conf, first scheduler.ProfileID, dynamic bool) (amContainers, error) {
	s := &settings{c: conf}
	var c amContainers
	c.NodeLabel = s.str("spindle.yarn.executor.nodeLabelExpression")
	instances := s.int("spindle.executor.instances")
	perNode := s.int("spindle.excludeOnFailure.application.maxFailedExecutorsPerNode")
	if !s.bool("spindle.yarn.executor.launch.excludeOnFailure.enabled") {
		perNode = 0
	}
	c.MaxFailuresPerNode = perNode
	c.MaxFailures = s.int("spindle.executor.maxNumFailures")
	c.ExcludeTimeout = s.duration("spindle.excludeOnFailure.timeout")
	c.Heartbeat = s.duration("spindle.yarn.scheduler.heartbeat.interval-ms")
	c.InitialAllocation = s.duration("spindle.yarn.scheduler.initial-allocation.interval")
	limit := instances // the executors maxNumFailures scales with
	c.Initial = map[scheduler.ProfileID]int{first: instances}
	if dynamic {
		limit = s.int("spindle.dynamicAllocation.maxExecutors")
	}
	if s.err != nil {
		return c, s.err
	}
	if c.MaxFailures == 0 && limit <= math.MaxInt/2 {
		c.MaxFailures = max(2*limit, 3) // Spark's default
	}
	var err error
	c.PortInNodeName, err = hconf.GetBool("yarn.scheduler.include-port-in-node-name", false)
	return c, err
}
