package settings

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

func TestContainerPolicy(t *testing.T) {
	type policyRead struct {
		core.ContainerConfig
		Placement
	}
	policy := func(overrides []string, portInName string) policyRead {
		t.Helper()
		conf, err := config.LoadFiles(nil, overrides)
		if err != nil {
			t.Fatal(err)
		}
		hconf := hadoopconf.New(hadoopconf.Env{})
		if portInName != "" {
			hconf.Set("yarn.scheduler.include-port-in-node-name", portInName)
		}
		dynamic, _ := conf.Bool("spindle.dynamicAllocation.enabled")
		c, err := containerConfig(conf, 0, dynamic)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ContainerPlacement(conf, hconf)
		if err != nil {
			t.Fatal(err)
		}
		return policyRead{c, p}
	}
	c := policy(nil, "")
	if c.Initial[0] != 2 || c.MaxFailures != 4 || c.MaxFailuresPerNode != 2 || c.ExcludeTimeout != time.Hour ||
		c.Heartbeat != time.Second || c.InitialAllocation != 200*time.Millisecond || c.PortInNodeName {
		t.Errorf("defaults: %+v", c)
	}
	c = policy([]string{"spindle.executor.instances=1", "spindle.yarn.executor.launch.excludeOnFailure.enabled=false", "spindle.yarn.executor.nodeLabelExpression=gpu"}, "true")
	if c.Initial[0] != 1 || c.MaxFailures != 3 || c.MaxFailuresPerNode != 0 || c.NodeLabel != "gpu" || !c.PortInNodeName {
		t.Errorf("one executor, no exclusion, a label, ports in node names: %+v", c)
	}
	c = policy([]string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.initialExecutors=3"}, "")
	if c.MaxFailures != 0 {
		t.Errorf("dynamic allocation, maxExecutors unlimited: MaxFailures %d; want no limit", c.MaxFailures)
	}
	c = policy([]string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.maxExecutors=5", "spindle.executor.maxNumFailures=0"}, "")
	if c.MaxFailures != 10 {
		t.Errorf("maxExecutors 5: MaxFailures %d, want 10", c.MaxFailures)
	}
	if c = policy([]string{"spindle.executor.maxNumFailures=7"}, ""); c.MaxFailures != 7 {
		t.Errorf("MaxFailures %d, want the 7 set", c.MaxFailures)
	}
}
