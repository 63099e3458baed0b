package core_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Containers of executors with FPGAs get per-node FPGA indices as they get
// GPU indices: the lowest free on the node among the application's own, a
// container that would pass the node's count released; and tasks get the
// FPGA addresses their executor registered.
func TestContainersGetFPGAIndicesPerNodeAndTasksTheirAddresses(t *testing.T) {
	fpga2, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2})
	fpga1, _ := scheduler.NewAccelerators(map[string]int{"fpga": 1})
	h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{{Cores: 2, Accels: fpga2}}, TaskAccels: fpga1,
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 3}, MaxAccelsPerNode: map[string]int{"fpga": 4}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Advance(time.Second)
	h.Ready()
	res := core.AllocateResult{ClusterNodes: 1}
	for i := 1; i <= 3; i++ {
		res.Allocated = append(res.Allocated, core.Container{ID: fmt.Sprintf("c%d", i), Node: "n:1", NodeName: "n", Ask: h.ContainerFor(0)})
	}
	h.Core.Allocated(h.Now, res)
	rd := h.Ready()
	var starts []string
	for _, s := range rd.StartContainers {
		starts = append(starts, fmt.Sprintf("%s %v", s.Container, s.AccelIndices))
	}
	if want := []string{"c1 [{fpga [0 1]}]", "c2 [{fpga [2 3]}]"}; !reflect.DeepEqual(starts, want) {
		t.Errorf("started %q, want %q", starts, want)
	}
	if !strings.Contains(fmt.Sprint(rd.Notices), "container released: node n:1: 2 fpga asked, 0 of its 4 free") {
		t.Errorf("the third container was not released for want of FPGAs: %v", rd.Notices)
	}

	if err := h.Core.Register(h.Now, core.Registration{Executor: "c1", Host: "n", Cores: 2,
		Accels: []scheduler.Assigned{{Name: "fpga", Addresses: []string{"0", "1"}}}}); err != nil {
		t.Fatal(err)
	}
	h.Submit(t, "j", 3, jobspec.Defaults{CPUs: 1}, "true")
	rd = h.Ready()
	var got []string
	for _, l := range rd.Launches {
		got = append(got, fmt.Sprint(l.Accels))
	}
	if want := []string{"[{fpga [0]}]", "[{fpga [1]}]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("launched with %q, want one FPGA each", got)
	}
}

// A task asking more of an accelerator than any profile has is refused
// at submission, naming what it needs and what executors have.
func TestSubmitRefusesATaskAskingMoreFPGAsThanExecutorsHave(t *testing.T) {
	fpga1, _ := scheduler.NewAccelerators(map[string]int{"fpga": 1})
	fpga2, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2})
	h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{{Cores: 2, Accels: fpga1}}, TaskAccels: fpga2})
	if err != nil {
		t.Fatal(err)
	}
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Core.Submit(h.Now, job, nil)
	if err == nil || !strings.Contains(err.Error(), "a task needs 1 cpus, 0 GPUs, 2 fpga, which no executor of this application can hold (profile 0: 2 cores, 0 GPUs, 0 MiB, 1 fpga)") {
		t.Errorf("submit: %v", err)
	}
}

// A container refused for want of an accelerator on its node gives back
// the GPU indices it was given first: another profile's container takes
// them.
func TestContainerRefusedForAnAcceleratorKeepsNoGPU(t *testing.T) {
	fpga1, _ := scheduler.NewAccelerators(map[string]int{"fpga": 1})
	h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{{ID: 0, Cores: 1, GPUs: 1, Accels: fpga1}, {ID: 1, Cores: 1, GPUs: 1}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 2, 1: 1}, MaxGPUsPerNode: 2, MaxAccelsPerNode: map[string]int{"fpga": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	// Profile 1, not the default, is a stage shape: it wants a container
	// only for a task of its stage.
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{CPUs: 1, GPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Core.Submit(h.Now, job, []scheduler.ProfileID{1}); err != nil {
		t.Fatal(err)
	}
	h.Advance(time.Second)
	h.Ready()
	res := core.AllocateResult{ClusterNodes: 1}
	for i, p := range []scheduler.ProfileID{0, 0, 1} {
		res.Allocated = append(res.Allocated, core.Container{ID: fmt.Sprintf("c%d", i+1), Node: "n:1", NodeName: "n", Ask: h.ContainerFor(p)})
	}
	h.Core.Allocated(h.Now, res)
	var starts []string
	for _, s := range h.Ready().StartContainers {
		starts = append(starts, fmt.Sprintf("%s %v %v", s.Container, s.GPUIndices, s.AccelIndices))
	}
	if want := []string{"c1 [0] [{fpga [0]}]", "c3 [1] []"}; !reflect.DeepEqual(starts, want) {
		t.Errorf("started %q, want %q", starts, want)
	}
}

// A stage's own accelerator amount (resources: {fpga: 2}) is what each
// of its tasks asks, over the application's: its tasks get 2 FPGA
// addresses each where the application's tasks get 1.
func TestStageAcceleratorAmountIsItsTasks(t *testing.T) {
	fpga4, _ := scheduler.NewAccelerators(map[string]int{"fpga": 4})
	fpga1, _ := scheduler.NewAccelerators(map[string]int{"fpga": 1})
	h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{{Cores: 4, Accels: fpga4}}, TaskAccels: fpga1})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Core.Register(h.Now, core.Registration{Executor: "e1", Host: "n", Cores: 4,
		Accels: []scheduler.Assigned{{Name: "fpga", Addresses: []string{"0", "1", "2", "3"}}}}); err != nil {
		t.Fatal(err)
	}
	job := &jobspec.Job{Name: "j", Source: "test", Stages: []jobspec.Stage{
		{Name: "two", Tasks: 2, CPUs: 1, Accels: map[string]int{"fpga": 2}, Command: []string{"true"}}}}
	if _, err := h.Core.Submit(h.Now, job, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range h.Ready().Launches {
		got = append(got, fmt.Sprint(l.Accels))
	}
	if want := []string{"[{fpga [0 1]}]", "[{fpga [2 3]}]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("launched with %q, want two FPGAs each", got)
	}
}
