package config

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestRegistryRowsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range registry {
		if !strings.HasPrefix(k.Name, spindlePrefix) || seen[k.Name] {
			t.Errorf("%q: want a unique spindle.* name", k.Name)
		}
		seen[k.Name] = true
		if k.Meaning == "" {
			t.Errorf("%s: no meaning", k.Name)
		}
		if (k.Kind == KindDuration) != (k.Unit != 0) {
			t.Errorf("%s: a unit belongs to duration keys, and every duration key needs one", k.Name)
		}
		if (k.Kind == KindEnum) != (len(k.Values) > 0) {
			t.Errorf("%s: values belong to enum keys, and every enum key needs them", k.Name)
		}
		if k.Default == "" && k.DefaultFrom == "" && k.Kind != KindString {
			t.Errorf("%s: only string keys may have no default", k.Name)
		}
		if k.DefaultFrom != "" {
			if k.Default != "" {
				t.Errorf("%s: both Default and DefaultFrom", k.Name)
			}
			from, ok := byName[k.DefaultFrom]
			if !ok || from.Kind != k.Kind || from.DefaultFrom != "" {
				t.Errorf("%s: follows %q, which must be a key of the same kind with a default of its own", k.Name, k.DefaultFrom)
			}
			continue
		}
		if _, err := k.parse(k.Default); err != nil {
			t.Errorf("%s: default %q: %v", k.Name, k.Default, err)
		}
	}
}

// Every registry key's default, as README.md and docs/ give them; every
// registry key is listed.
func TestDefaultsMatchDesign(t *testing.T) {
	want := map[string]any{
		"spindle.master":                                             "local[2]",
		"spindle.executor.instances":                                 2,
		"spindle.executor.cores":                                     1,
		"spindle.executor.memory":                                    int64(1024),
		"spindle.executor.resource.gpu.amount":                       0,
		"spindle.executor.resource.gpu.discoveryScript":              "",
		"spindle.executor.gpuSampleInterval":                         5 * time.Second,
		"spindle.task.cpus":                                          1,
		"spindle.task.resource.gpu.amount":                           0.0,
		"spindle.task.maxFailures":                                   4,
		"spindle.task.retry.backoff":                                 200 * time.Millisecond,
		"spindle.task.retry.maxBackoff":                              10 * time.Second,
		"spindle.task.preemption.gracePeriod":                        10 * time.Second,
		"spindle.scheduler.mode":                                     "FIFO",
		"spindle.scheduler.allocation.file":                          "",
		"spindle.gang.timeout":                                       60 * time.Second,
		"spindle.gang.maxRetries":                                    2,
		"spindle.gang.style":                                         "hard",
		"spindle.scheduler.fairness":                                 "tasks",
		"spindle.yarn.executor.docker.image":                         "",
		"spindle.yarn.executor.docker.mounts":                        "",
		"spindle.yarn.executor.docker.network":                       "",
		"spindle.dynamicAllocation.enabled":                          false,
		"spindle.dynamicAllocation.minExecutors":                     0,
		"spindle.dynamicAllocation.maxExecutors":                     math.MaxInt,
		"spindle.dynamicAllocation.initialExecutors":                 0,
		"spindle.dynamicAllocation.executorIdleTimeout":              60 * time.Second,
		"spindle.dynamicAllocation.schedulerBacklogTimeout":          time.Second,
		"spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout": time.Second,
		"spindle.dynamicAllocation.executorAllocationRatio":          1.0,
		"spindle.dynamicAllocation.policy":                           "spindle",
		"spindle.worker.resourcesFile":                               "",
		"spindle.worker.resource.gpu.addresses":                      "",
		"spindle.worker.resource.gpu.discoveryScript":                "",
		"spindle.yarn.queue":                                         "default",
		"spindle.yarn.tags":                                          "",
		"spindle.yarn.am.memory":                                     int64(256),
		"spindle.yarn.am.cores":                                      1,
		"spindle.driver.bindAddress":                                 "",
		"spindle.log.level":                                          "info",
		"spindle.yarn.maxAppAttempts":                                2,
		"spindle.yarn.am.keepContainers":                             true,
		"spindle.yarn.am.journal":                                    true,
		"spindle.yarn.am.adoptTimeout":                               30 * time.Second,
		"spindle.yarn.executor.rejoinTimeout":                        60 * time.Second,
		"spindle.yarn.am.attemptFailuresValidityInterval":            time.Duration(0),
		"spindle.yarn.stagingDir":                                    "/user/$USER/.spindle",
		"spindle.yarn.executor.nodeLabelExpression":                  "",
		"spindle.yarn.executor.maxPerNode":                           0,
		"spindle.yarn.executor.placement":                            "none",
		"spindle.yarn.executor.nodeAttributes":                       "",
		"spindle.yarn.mode":                                          "coarse",
		"spindle.yarn.resourceMapping":                               "",
		"spindle.kerberos.principal":                                 "",
		"spindle.kerberos.keytab":                                    "",
		"spindle.kerberos.access.hadoopFileSystems":                  "",
		"spindle.kerberos.renewal.ratio":                             0.75,
		"spindle.acls.enable":                                        false,
		"spindle.ui.view.acls":                                       "",
		"spindle.modify.acls":                                        "",

		"spindle.locality.wait":                                          3 * time.Second,
		"spindle.excludeOnFailure.enabled":                               false,
		"spindle.excludeOnFailure.maxFailedTasksPerHost":                 2,
		"spindle.excludeOnFailure.timeout":                               time.Hour,
		"spindle.scheduler.excludeOnFailure.unschedulableTaskSetTimeout": 120 * time.Second,
		"spindle.dynamicAllocation.warmPool.size":                        1,
		"spindle.dynamicAllocation.warmPool.idleTimeout":                 60 * time.Second,
		"spindle.dynamicAllocation.surplusIdleTimeout":                   15 * time.Second,
		"spindle.dynamicAllocation.rampDownDelay":                        5 * time.Second,
		"spindle.excludeOnFailure.application.maxFailedExecutorsPerNode": 2,
		"spindle.yarn.executor.launch.excludeOnFailure.enabled":          true,
		"spindle.executor.maxNumFailures":                                0,
		"spindle.yarn.scheduler.heartbeat.interval-ms":                   time.Second,
		"spindle.yarn.scheduler.initial-allocation.interval":             200 * time.Millisecond,
		"spindle.app.name":                                               "",
		"spindle.scheduler.pool":                                         "",
		"spindle.task.log.maxBytes":                                      int64(64 << 20),
		"spindle.log.maxBytes":                                           int64(64 << 20),
		"spindle.ui.enabled":                                             true,
		"spindle.ui.port":                                                0,
		"spindle.ui.retainedJobs":                                        1000,
		"spindle.ui.retainedTasks":                                       100000,
		"spindle.ui.retainedAttempts":                                    8,
		"spindle.eventLog.enabled":                                       true,
		"spindle.eventLog.dir":                                           "",
		"spindle.eventLog.maxApps":                                       100,
		"spindle.eventLog.maxAge":                                        7 * 24 * time.Hour,
		"spindle.log.maxFiles":                                           4,
		"spindle.session.taskLogs.maxJobs":                               100,
		"spindle.session.taskLogs.maxBytes":                              int64(1 << 30),
		"spindle.worker.cleanup.appDataTtl":                              7 * 24 * time.Hour,
		"spindle.session.maxPendingTasks":                                4_000_000,
		"spindle.session.maxPendingTasksPerJob":                          2_000_000,
		"spindle.session.maxRunningJobs":                                 10_000,
		"spindle.session.maxExecutorProfiles":                            8,
	}
	c := mustLoad(t, "")
	for _, k := range Keys() {
		w, ok := want[k.Name]
		if !ok {
			t.Errorf("%s: in the registry, not in this test", k.Name)
			continue
		}
		got, err := getByKind(c, k.Name)
		if err != nil || got != w {
			t.Errorf("%s = %#v, %v; want %#v", k.Name, got, err, w)
		}
		if c.Source(k.Name) != (Source{}) {
			t.Errorf("%s: source %v, want default", k.Name, c.Source(k.Name))
		}
		delete(want, k.Name)
	}
	for name := range want {
		t.Errorf("%s: in this test, not in the registry", name)
	}
}

func TestDerivedDefaultsFollowTheirKey(t *testing.T) {
	c := mustLoad(t, "spark.dynamicAllocation.schedulerBacklogTimeout 5\nspindle.dynamicAllocation.minExecutors 3")
	if d, _ := c.Duration("spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout"); d != 5*time.Second {
		t.Errorf("sustainedSchedulerBacklogTimeout = %v, want the backlog timeout 5s", d)
	}
	if n, _ := c.Int("spindle.dynamicAllocation.initialExecutors"); n != 3 {
		t.Errorf("initialExecutors = %d, want minExecutors 3", n)
	}
	if s := c.Source("spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout"); s != (Source{}) {
		t.Errorf("a followed default has source %v, want default", s)
	}

	c = mustLoad(t, "spindle.dynamicAllocation.schedulerBacklogTimeout 5s\nspindle.dynamicAllocation.sustainedSchedulerBacklogTimeout 2s")
	if d, _ := c.Duration("spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout"); d != 2*time.Second {
		t.Errorf("sustainedSchedulerBacklogTimeout = %v, want its own 2s", d)
	}
}
