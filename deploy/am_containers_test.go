package deploy

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

func TestContainerPolicy(t *testing.T) {
	policy := func(overrides []string, portInName string) *am.Containers {
		t.Helper()
		conf, err := config.LoadFiles(nil, overrides)
		if err != nil {
			t.Fatal(err)
		}
		hconf := hadoopconf.New(hadoopconf.Env{})
		if portInName != "" {
			hconf.Set("yarn.scheduler.include-port-in-node-name", portInName)
		}
		var alloc *dynalloc.Manager
		if on, _ := conf.Bool("spindle.dynamicAllocation.enabled"); on {
			acfg, err := allocationConfig(conf)
			if err != nil {
				t.Fatal(err)
			}
			if alloc, err = dynalloc.New(acfg); err != nil {
				t.Fatal(err)
			}
		}
		c := &am.Containers{Profiles: []scheduler.Profile{{ID: 0}}}
		if err := containerPolicy(c, conf, hconf, alloc); err != nil {
			t.Fatal(err)
		}
		return c
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
	if c.Initial[0] != 3 || c.MaxFailures != 0 {
		t.Errorf("dynamic allocation, maxExecutors unlimited: initial %v, MaxFailures %d; want 3 and no limit", c.Initial, c.MaxFailures)
	}
	c = policy([]string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.maxExecutors=5", "spindle.executor.maxNumFailures=0"}, "")
	if c.MaxFailures != 10 {
		t.Errorf("maxExecutors 5: MaxFailures %d, want 10", c.MaxFailures)
	}
	if c = policy([]string{"spindle.executor.maxNumFailures=7"}, ""); c.MaxFailures != 7 {
		t.Errorf("MaxFailures %d, want the 7 set", c.MaxFailures)
	}
}
