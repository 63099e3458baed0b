package deploy

import (
	"math"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// containerPolicy sets what configuration decides of the AM's executor
// containers: how many of each profile at first (spindle.executor.instances,
// or dynamic allocation's initial target), the node label, the heartbeat,
// and when failing executors exclude a node or fail the application.
func containerPolicy(c *am.Containers, conf *config.Config, hconf *hadoopconf.Conf, alloc *dynalloc.Manager) error {
	s := &settings{c: conf}
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
	c.Initial = map[scheduler.ProfileID]int{c.Profiles[0].ID: instances}
	if alloc != nil {
		for _, p := range c.Profiles {
			c.Initial[p.ID] = alloc.Target(p.ID)
		}
		limit = s.int("spindle.dynamicAllocation.maxExecutors")
	}
	if s.err != nil {
		return s.err
	}
	if c.MaxFailures == 0 && limit <= math.MaxInt/2 {
		c.MaxFailures = max(2*limit, 3) // Spark's default
	}
	var err error
	c.PortInNodeName, err = hconf.GetBool("yarn.scheduler.include-port-in-node-name", false)
	return err
}
