package core

import (
	"reflect"
	"testing"
)

func TestDeviceIndicesAreDistinctPerNodeAndReused(t *testing.T) {
	g := NewDeviceIndices()
	a, err := g.Assign("gpu", "n1:8041", 4, 2)
	if err != nil || !reflect.DeepEqual(a, []string{"0", "1"}) {
		t.Fatalf("first container: %v, %v", a, err)
	}
	b, _ := g.Assign("gpu", "n1:8041", 4, 2)
	if !reflect.DeepEqual(b, []string{"2", "3"}) {
		t.Fatalf("second container on the node: %v, want 2 3", b)
	}
	// Another node starts from 0.
	if c, _ := g.Assign("gpu", "n2:8041", 4, 1); !reflect.DeepEqual(c, []string{"0"}) {
		t.Fatalf("other node: %v", c)
	}
	if _, err := g.Assign("gpu", "n1:8041", 4, 1); err == nil {
		t.Fatal("a fifth GPU on a node of 4 was given")
	}
	if err := g.Release("gpu", "n1:8041", a); err != nil {
		t.Fatal(err)
	}
	if d, _ := g.Assign("gpu", "n1:8041", 4, 1); !reflect.DeepEqual(d, []string{"0"}) {
		t.Fatalf("after a release: %v, want the freed 0", d)
	}
	for _, bad := range [][]string{{"1"}, {"7"}, {"x"}, {"2", "2"}} {
		if err := g.Release("gpu", "n1:8041", bad); err == nil {
			t.Errorf("releasing %v was accepted", bad)
		}
	}
	// The failed releases changed nothing: 2 and 3 are still held.
	if e, err := g.Assign("gpu", "n1:8041", 4, 1); err != nil || !reflect.DeepEqual(e, []string{"1"}) {
		t.Fatalf("after refused releases: %v, %v, want 1", e, err)
	}
}

// A kept container's indices are taken exactly; Assign then skips them,
// and an index taken, out of range or named twice is refused with
// nothing changed.
func TestDeviceIndicesTake(t *testing.T) {
	g := NewDeviceIndices()
	if err := g.Take("gpu", "n", 4, []string{"1", "3"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"1"}, {"4"}, {"-1"}, {"x"}, {"0", "0"}, {"0", "3"}} {
		if err := g.Take("gpu", "n", 4, bad); err == nil {
			t.Errorf("Take %v: accepted", bad)
		}
	}
	got, err := g.Assign("gpu", "n", 4, 2)
	if err != nil || len(got) != 2 || got[0] != "0" || got[1] != "2" {
		t.Fatalf("Assign after Take = %v, %v; want [0 2]", got, err)
	}
	if err := g.Take("gpu", "n", 4, []string{"3"}); err == nil {
		t.Error("Take of index 3 twice: accepted")
	}
}

// Each resource has indices of its own on a node: an FPGA index taken
// leaves the GPU of the same index free.
func TestDeviceIndicesArePerResource(t *testing.T) {
	g := NewDeviceIndices()
	if a, err := g.Assign("fpga", "n", 2, 2); err != nil || !reflect.DeepEqual(a, []string{"0", "1"}) {
		t.Fatalf("fpga: %v, %v", a, err)
	}
	if a, err := g.Assign("gpu", "n", 2, 1); err != nil || !reflect.DeepEqual(a, []string{"0"}) {
		t.Fatalf("gpu beside 2 FPGAs: %v, %v", a, err)
	}
	_, err := g.Assign("fpga", "n", 2, 1)
	if err == nil || err.Error() != "node n: 1 fpga asked, 0 of its 2 free among this application's containers" {
		t.Errorf("a third FPGA on a node of 2: %v", err)
	}
}

// What one resource's Release gives back is that resource's.
func TestDeviceIndicesReleasePerResource(t *testing.T) {
	g := NewDeviceIndices()
	a, _ := g.Assign("fpga", "n", 1, 1)
	if err := g.Release("fpga", "n", a); err != nil {
		t.Fatal(err)
	}
	if b, err := g.Assign("fpga", "n", 1, 1); err != nil || !reflect.DeepEqual(b, []string{"0"}) {
		t.Errorf("after its release: %v, %v", b, err)
	}
}
