package core_test

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

var defaultShape = scheduler.Profile{ID: 0, Cores: 2, MemoryMB: 1024, GPUs: 1}

// A stage's shape is the default's cores and memory raised to one task's
// needs, and the task's GPUs rounded up to whole ones: a CPU-only stage
// holds no GPU.
func TestStageShapeRaisesTheDefaultToTheTask(t *testing.T) {
	for _, c := range []struct {
		name string
		st   jobspec.Stage
		want scheduler.Profile
	}{
		{"cpu-only, more memory", jobspec.Stage{CPUs: 1, MemoryMB: 2048}, scheduler.Profile{Cores: 2, MemoryMB: 2048, GPUs: 0}},
		{"more cores", jobspec.Stage{CPUs: 6, GPUs: 1}, scheduler.Profile{Cores: 6, MemoryMB: 1024, GPUs: 1}},
		{"more GPUs", jobspec.Stage{CPUs: 1, GPUs: 4, MemoryMB: 512}, scheduler.Profile{Cores: 2, MemoryMB: 1024, GPUs: 4}},
		{"a fraction", jobspec.Stage{CPUs: 1, GPUs: 0.5, MemoryMB: 4096}, scheduler.Profile{Cores: 2, MemoryMB: 4096, GPUs: 1}},
		{"cpus unset", jobspec.Stage{GPUs: 2}, scheduler.Profile{Cores: 2, MemoryMB: 1024, GPUs: 2}},
	} {
		if got := core.StageShape(defaultShape, c.st); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// Accelerators besides GPUs are every task's (spindle.task.resource.*):
	// a shape keeps the default's.
	fpga, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2})
	withFPGA := defaultShape
	withFPGA.Accels = fpga
	shape := core.StageShape(withFPGA, jobspec.Stage{CPUs: 1, MemoryMB: 2048})
	if shape.Accels != fpga {
		t.Errorf("a shape of a default with FPGAs: %+v, want its 2 fpga", shape)
	}
	small := scheduler.Profile{Cores: 1, MemoryMB: 256}
	if got := core.StageShape(small, jobspec.Stage{CPUs: 0, MemoryMB: 0}); got.Cores != 1 || got.MemoryMB != 256 {
		t.Errorf("a task of no cpus and no memory on %+v: %+v, want 1 core and the default's 256 MiB", small, got)
	}
}

// A job's stages the default holds run there; the others get a profile
// per distinct shape, numbered in the order stages first need one.
func TestStageShapesShareOneProfilePerShape(t *testing.T) {
	job := &jobspec.Job{Stages: []jobspec.Stage{
		{Name: "train", CPUs: 1, GPUs: 1},
		{Name: "gather", CPUs: 1, MemoryMB: 2048},
		{Name: "wide", CPUs: 1, GPUs: 2},
		{Name: "gather2", CPUs: 2, MemoryMB: 2048},
	}}
	profiles, stages := core.StageShapes(defaultShape, job)
	want := []scheduler.Profile{defaultShape, {ID: 1, Cores: 2, MemoryMB: 2048}, {ID: 2, Cores: 2, MemoryMB: 1024, GPUs: 2}}
	if !reflect.DeepEqual(profiles, want) || !reflect.DeepEqual(stages, []scheduler.ProfileID{0, 1, 2, 1}) {
		t.Fatalf("profiles %+v stages %v\nwant %+v stages [0 1 2 1]", profiles, stages, want)
	}
	// Held by the default, a CPU-only stage runs there, though its own
	// shape would have no GPU.
	held := &jobspec.Job{Stages: []jobspec.Stage{{Name: "a", CPUs: 2, GPUs: 0.5, MemoryMB: 1024}, {Name: "cpu", CPUs: 1}}}
	if profiles, stages := core.StageShapes(defaultShape, held); len(profiles) != 1 || stages != nil {
		t.Fatalf("a job the default holds: %+v %v, want the default alone and no stage profiles", profiles, stages)
	}
}

// A stage naming accelerators itself outgrows a default without them:
// its shape holds what one task asks of each it names (no more), the
// default's of the others; a stage the default holds, accelerators and
// all, runs there. Its placement and label are its shape's.
func TestStageShapesOfStageAccelerators(t *testing.T) {
	tpu, _ := scheduler.NewAccelerators(map[string]int{"tpu": 1})
	def := defaultShape
	def.Accels = tpu
	spread := scheduler.Placement{Affinity: scheduler.Spread}
	job := &jobspec.Job{Stages: []jobspec.Stage{
		{Name: "fpga", CPUs: 1, Accels: map[string]int{"fpga": 2}, Placement: spread},
		{Name: "tpu", CPUs: 1, Accels: map[string]int{"tpu": 1}},
		{Name: "no-tpu", CPUs: 4, Accels: map[string]int{"tpu": 0}},
	}}
	profiles, stages := core.StageShapes(def, job)
	both, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2, "tpu": 1})
	want := []scheduler.Profile{def,
		{ID: 1, Cores: 2, MemoryMB: 1024, Accels: both, Placement: spread},
		{ID: 2, Cores: 4, MemoryMB: 1024}}
	if !reflect.DeepEqual(profiles, want) || !reflect.DeepEqual(stages, []scheduler.ProfileID{1, 0, 2}) {
		t.Fatalf("profiles %+v stages %v\nwant %+v stages [1 0 2]", profiles, stages, want)
	}
}

// onYARN is a session's core keeping containers in coarse mode, under
// the bound on profiles and the cluster's maximum allocation given.
func onYARN(t *testing.T, maxProfiles int, maxMemory int64) *coretest.Harness {
	t.Helper()
	h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{defaultShape},
		Limits:     core.SessionLimits{MaxExecutorProfiles: maxProfiles},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 1}, MaxMemoryMB: maxMemory, MaxCores: 8, MaxGPUsPerNode: 4}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// memoryJob is a job of one CPU-only stage whose task needs mb MiB.
func memoryJob(name string, mb int64) *jobspec.Job {
	return &jobspec.Job{Name: name, Source: "test", Stages: []jobspec.Stage{{Name: name, Tasks: 1, CPUs: 1, MemoryMB: mb, Command: []string{"true"}}}}
}

// A session adds a profile for each new shape its jobs need, up to
// spindle.session.maxExecutorProfiles, its default one counted: the job
// that makes the limit is taken, the one past it refused, naming the
// stage and the key; a job of a shape it has goes on being taken.
func TestSessionAddsProfilesUpToTheLimit(t *testing.T) {
	h := onYARN(t, 3, 0)
	for i, mb := range []int64{2048, 4096} {
		if _, err := h.Core.Submit(h.Now, memoryJob("fits", mb), nil); err != nil {
			t.Fatalf("profile %d of 3: %v", i+2, err)
		}
	}
	_, err := h.Core.Submit(h.Now, memoryJob("past", 8192), nil)
	wantRefused(t, err, `stage "past": a task needs 1 cpus, 0 GPUs, 8192 MiB, which no executor profile of this session holds, and a new one would be its profile 4, more than spindle.session.maxExecutorProfiles (3)`)
	id, err := h.Core.Submit(h.Now, memoryJob("again", 3000), nil)
	if err != nil {
		t.Fatalf("a job the 4096 MiB profile holds: %v", err)
	}
	if got := h.Core.StageProfiles(id); !reflect.DeepEqual(got, []scheduler.ProfileID{2}) {
		t.Fatalf("its stage runs on %v, want [2]", got)
	}
	// What the journal keeps of it for the next attempt: the shape too.
	if got, want := h.Core.StageShapes(id), []scheduler.Profile{{ID: 2, Cores: 2, MemoryMB: 4096}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("its stage shapes %+v, want %+v", got, want)
	}
	if h.Core.StageShapes(99) != nil {
		t.Fatal("a job the core does not have has stage shapes")
	}
}

// A job with two stages of new shapes, the second past the limit, adds
// neither: a refused job leaves the session's profiles as they were.
func TestRefusedJobAddsNoProfile(t *testing.T) {
	h := onYARN(t, 2, 0)
	two := memoryJob("two", 2048)
	two.Stages = append(two.Stages, jobspec.Stage{Name: "more", Tasks: 1, CPUs: 1, MemoryMB: 4096, Command: []string{"true"}})
	if _, err := h.Core.Submit(h.Now, two, nil); err == nil {
		t.Fatal("a job needing 2 new profiles, 3 in all, past 2: accepted")
	}
	if _, err := h.Core.Submit(h.Now, memoryJob("one", 2048), nil); err != nil {
		t.Fatalf("then a job needing one new profile, 2 in all: %v", err)
	}
}

// A shape above the cluster's maximum allocation is refused at submit,
// naming the stage; at the maximum it is taken.
func TestSessionRefusesAShapeAboveTheMaximumAllocation(t *testing.T) {
	h := onYARN(t, 8, 8192)
	if _, err := h.Core.Submit(h.Now, memoryJob("at", 8192), nil); err != nil {
		t.Fatalf("at the maximum: %v", err)
	}
	_, err := h.Core.Submit(h.Now, memoryJob("huge", 8193), nil)
	wantRefused(t, err, `stage "huge": its executors would need 8193 MiB of memory, more than the cluster's maximum allocation (8192)`)
	gpus := &jobspec.Job{Name: "g", Source: "test", Stages: []jobspec.Stage{{Name: "g", Tasks: 1, CPUs: 1, GPUs: 5, Command: []string{"true"}}}}
	_, err = h.Core.Submit(h.Now, gpus, nil)
	wantRefused(t, err, `stage "g": its executors would need 5 GPUs, more than the cluster's maximum allocation (4)`)
	// Memory and vcores unknown are not checked; GPUs are: a node's most
	// bounds the GPU indices given out, and none means none.
	none, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 512}},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Core.Submit(none.Now, memoryJob("big", 1<<20), nil); err != nil {
		t.Fatalf("a memory shape where the maximum is unknown: %v", err)
	}
	gpus.Stages[0].GPUs = 1
	_, err = none.Core.Submit(none.Now, gpus, nil)
	wantRefused(t, err, `stage "g": its executors would need 1 GPUs, more than the cluster's maximum allocation (0)`)
}

// Local mode's executors are fixed (local[N]): a stage they cannot hold
// is refused, naming it and what the executors have, as in fine mode.
func TestLocalAndFineModeRefuseANewShape(t *testing.T) {
	local, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{defaultShape}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = local.Core.Submit(local.Now, memoryJob("big", 2048), nil)
	wantRefused(t, err, `stage "big": a task needs 1 cpus, 0 GPUs, 2048 MiB, which no executor of this application can hold (profile 0: 2 cores, 1 GPUs, 1024 MiB)`)
	fine, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{defaultShape}, OneTaskPerExecutor: true,
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = fine.Core.Submit(fine.Now, memoryJob("big", 2048), nil); err == nil {
		t.Fatal("fine mode took a shape its session did not start with")
	}
}

// A session's stage naming an accelerator gets a shape holding it only
// where YARN can give it: one its executors have no resource type for is
// refused naming the key to start the session with, and more than a
// node has is refused as a maximum allocation is.
func TestSessionRefusesAStageAcceleratorItCannotAsk(t *testing.T) {
	fpgaJob := func(n int) *jobspec.Job {
		return &jobspec.Job{Name: "f", Source: "test", Stages: []jobspec.Stage{{Name: "f", Tasks: 1, CPUs: 1, Accels: map[string]int{"fpga": n}, Command: []string{"true"}}}}
	}
	h := onYARN(t, 8, 0)
	_, err := h.Core.Submit(h.Now, fpgaJob(2), nil)
	wantRefused(t, err, `stage "f": resources.fpga: this session's executors have no fpga, so it cannot ask YARN for any; start the session with spindle.executor.resource.fpga.amount`)
	known, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{defaultShape},
		Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 1}, MaxGPUsPerNode: 4, MaxAccelsPerNode: map[string]int{"fpga": 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := known.Core.Submit(known.Now, fpgaJob(2), nil); err != nil {
		t.Fatalf("2 FPGAs where nodes have 2: %v", err)
	}
	_, err = known.Core.Submit(known.Now, fpgaJob(3), nil)
	wantRefused(t, err, `stage "f": its executors would need 3 fpga, more than a node of the cluster has (2)`)
}
