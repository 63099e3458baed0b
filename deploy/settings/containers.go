package settings

import (
	"math"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// ContainerPolicy is what configuration decides of the AM's executor
// containers.
type ContainerPolicy struct {
	core.ContainerConfig
	NodeLabel      string
	PortInNodeName bool
}

// Containers reads how many executors of the default profile to keep
// at first (spindle.executor.instances; with dynamic allocation the core
// takes its initial target instead), the node label, the heartbeat, and
// when failing executors exclude a node or fail the application.
func Containers(conf *config.Config, hconf *hadoopconf.Conf, first scheduler.ProfileID, dynamic bool) (ContainerPolicy, error) {
	s := Read(conf)
	var c ContainerPolicy
	c.NodeLabel = s.String("spindle.yarn.executor.nodeLabelExpression")
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
	var err error
	c.PortInNodeName, err = hconf.GetBool("yarn.scheduler.include-port-in-node-name", false)
	return c, err
}
