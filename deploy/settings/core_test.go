package settings

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// What the core is configured with depends on the process as the AM's
// rules need: containers, their pace, fine mode and dynamic allocation
// only where containers are kept (the AM, the simulator); the session's
// limits only in a session.
func TestCoreForEachProcess(t *testing.T) {
	conf, err := config.Load(nil, []string{"spindle.yarn.mode=fine", "spindle.session.maxRunningJobs=3",
		"spindle.yarn.scheduler.heartbeat.interval-ms=3s", "spindle.yarn.scheduler.initial-allocation.interval=300ms",
		"spindle.task.preemption.gracePeriod=4"})
	if err != nil {
		t.Fatal(err)
	}
	local, _, err := Core(conf, CoreFor{AppID: "local-1"})
	if err != nil {
		t.Fatal(err)
	}
	if local.Containers != nil || local.Allocation != nil || local.OneTaskPerExecutor || local.Limits.MaxRunningJobs != 0 || local.AppID != "local-1" {
		t.Errorf("local mode, one job: %+v; want no containers, no allocation, no fine mode, no session limits", local)
	}
	am, _, err := Core(conf, CoreFor{Session: true, Containers: true})
	if err != nil {
		t.Fatal(err)
	}
	if am.Containers == nil || am.Containers.Heartbeat != 3*time.Second || am.Containers.InitialAllocation != 300*time.Millisecond {
		t.Fatalf("containers %+v; want the heartbeat and initial interval set", am.Containers)
	}
	// A bare number of seconds, as the key's unit says.
	if am.DrainGrace != 4*time.Second {
		t.Errorf("drain grace %v, want spindle.task.preemption.gracePeriod's 4s", am.DrainGrace)
	}
	// Fine mode asks for containers as tasks want them: dynamic
	// allocation, though spindle.dynamicAllocation.enabled is false.
	if !am.OneTaskPerExecutor || am.Allocation == nil || !am.Session || am.Limits.MaxRunningJobs != 3 {
		t.Errorf("a session keeping containers in fine mode: %+v", am)
	}
}

// spindle.executor.gpuSampleInterval reaches the executors' launch: 5s
// unless set, 0 turning sampling off.
func TestGPUSampleIntervalReachesTheLaunch(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		want time.Duration
	}{
		{nil, 5 * time.Second},
		{[]string{"spindle.executor.gpuSampleInterval=30"}, 30 * time.Second},
		{[]string{"spindle.executor.gpuSampleInterval=0"}, 0},
	} {
		conf, err := config.Load(nil, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ExecutorLaunch(conf, "application_1_0001")
		if err != nil || l.GPUSampleInterval != tc.want {
			t.Errorf("%v: GPU sample interval %v, %v; want %v", tc.set, l.GPUSampleInterval, err, tc.want)
		}
	}
	if _, err := config.Load(nil, []string{"spindle.executor.gpuSampleInterval=-1s"}); err == nil {
		t.Error("a negative GPU sample interval is taken")
	}
}

// Executors outlive their AM for the next attempt only where YARN keeps
// their containers.
func TestRejoinTimeoutOnlyWithKeptContainers(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		want time.Duration
	}{
		{nil, time.Minute},
		{[]string{"spindle.yarn.executor.rejoinTimeout=5s"}, 5 * time.Second},
		{[]string{"spindle.yarn.am.keepContainers=false"}, 0},
	} {
		conf, err := config.Load(nil, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ExecutorLaunch(conf, "application_1_0001")
		if err != nil || l.RejoinTimeout != tc.want {
			t.Errorf("%v: rejoin timeout %v, %v; want %v", tc.set, l.RejoinTimeout, err, tc.want)
		}
	}
}
