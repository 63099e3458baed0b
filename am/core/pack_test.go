package core_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// asks is what an allocate asked, one "profile:count" a line, "near"
// marking asks near the profile's placed executors.
func asks(rd core.Ready) string {
	if rd.Allocate == nil {
		return ""
	}
	s := ""
	for _, a := range rd.Allocate.Asks {
		s += fmt.Sprintf("p%d:%d", a.Profile.ID, a.Count)
		if a.Near {
			s += " near"
		}
		s += ";"
	}
	return s
}

// Packed, each profile asks its first executor alone, with no affinity
// (nothing of its own is placed to be near), and the rest near it once it
// is allocated; a second profile anchors on its own. Unpacked, every
// executor is asked at once, near nothing.
func TestPackAsksAnAnchorThenTheRestNearIt(t *testing.T) {
	gpu := scheduler.Profile{ID: 0, Cores: 1, GPUs: 1}
	cpu := scheduler.Profile{ID: 1, Cores: 2}
	start := func(pack bool) *coretest.Harness {
		h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{gpu, cpu},
			Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 3, 1: 2}, MaxGPUsPerNode: 4, Pack: pack}})
		if err != nil {
			t.Fatal(err)
		}
		// Profile 1, not the default, is a stage shape: it is wanted only
		// for its stage's tasks, here two of 2 cpus, an executor each.
		job, err := jobspec.Short("j", 2, []string{"true"}, jobspec.Defaults{CPUs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Core.Submit(h.Now, job, []scheduler.ProfileID{1}); err != nil {
			t.Fatal(err)
		}
		h.Advance(time.Second)
		return h
	}
	step := func(h *coretest.Harness, what, want string) {
		t.Helper()
		h.Advance(2 * time.Second)
		if got := asks(h.Ready()); got != want {
			t.Fatalf("%s: asked %q, want %q", what, got, want)
		}
	}
	allocate := func(h *coretest.Harness, id string, p scheduler.ProfileID) {
		h.Core.Allocated(h.Now, core.AllocateResult{ClusterNodes: 2, Allocated: []core.Container{{ID: id, Node: "n:1", NodeName: "n", Ask: h.ContainerFor(p)}}})
	}

	if got := asks(start(false).Ready()); got != "p0:3;p1:2;" {
		t.Errorf("unpacked: asked %q, want every executor at once, near nothing", got)
	}

	h := start(true)
	step(h, "first", "p0:1;p1:1;")
	step(h, "anchors open", "")
	allocate(h, "g1", 0)
	step(h, "profile 0 anchored", "p0:2 near;")
	allocate(h, "c1", 1)
	step(h, "profile 1 anchored", "p1:1 near;")
	allocate(h, "g2", 0)
	step(h, "one near profile 0 came", "")

	// The anchor gone with its node, nothing is left to be near: the ask
	// near it is withdrawn and a new anchor asked.
	h.Core.Allocated(h.Now, core.AllocateResult{ClusterNodes: 2, Completed: []core.Completion{{Container: "g1", ExitStatus: -100}, {Container: "g2", ExitStatus: -100}}})
	step(h, "profile 0's executors lost", "p0:0 near;p0:1;")
}

// A stage's own placement decides its profile's packing over the
// application's: a profile placed pack anchors then packs in an
// application that packs nothing, and one placed spread (or bounded per
// node) asks every executor at once in an application that packs all.
func TestStagePlacementPacksItsProfileAlone(t *testing.T) {
	start := func(appPack bool, own scheduler.Placement) *coretest.Harness {
		def := scheduler.Profile{ID: 0, Cores: 1}
		placed := scheduler.Profile{ID: 1, Cores: 1, Placement: own}
		h, err := coretest.New(core.Config{Profiles: []scheduler.Profile{def, placed},
			Containers: &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: 2, 1: 2}, Pack: appPack}})
		if err != nil {
			t.Fatal(err)
		}
		// Profile 1 is a stage's: wanted for its stage's two tasks.
		job, err := jobspec.Short("j", 2, []string{"true"}, jobspec.Defaults{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Core.Submit(h.Now, job, []scheduler.ProfileID{1}); err != nil {
			t.Fatal(err)
		}
		h.Advance(time.Second)
		return h
	}
	for _, c := range []struct {
		appPack bool
		own     scheduler.Placement
		want    string
	}{
		{false, scheduler.Placement{Affinity: scheduler.Pack}, "p0:2;p1:1;"},
		{true, scheduler.Placement{Affinity: scheduler.Spread}, "p0:1;p1:2;"},
		{true, scheduler.Placement{MaxPerNode: 2}, "p0:1;p1:2;"},
	} {
		if got := asks(start(c.appPack, c.own).Ready()); got != c.want {
			t.Errorf("application packing %v, profile 1 placed %v: asked %q, want %q", c.appPack, c.own, got, c.want)
		}
	}
}
