package handover

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session's stage profile reaches the next attempt whole: its
// accelerators, node label and placement with its size, so that it is
// asked again as it was.
func TestStageShapesKeepAcceleratorsLabelAndPlacement(t *testing.T) {
	fpga, _ := scheduler.NewAccelerators(map[string]int{"fpga": 2, "tpu": 1})
	for _, p := range []scheduler.Profile{
		{Cores: 2, MemoryMB: 1024, GPUs: 1},
		{Cores: 1, MemoryMB: 512, Accels: fpga, NodeLabel: "gpu-t4", Placement: scheduler.Placement{Affinity: scheduler.Pack}},
		{Cores: 1, Placement: scheduler.Placement{MaxPerNode: 2}},
	} {
		back, err := profileOf(shapeOf(p))
		if err != nil || back != p {
			t.Errorf("%+v: journalled and read back as %+v (%v)", p, back, err)
		}
	}
	if _, err := profileOf(journal.Shape{Cores: 1, Accels: map[string]int{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}}); err == nil {
		t.Error("a shape of 5 accelerators read back")
	}
}
