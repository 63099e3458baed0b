package core

import (
	"reflect"
	"testing"
)

func TestGPUIndicesAreDistinctPerNodeAndReused(t *testing.T) {
	g := NewGPUIndices()
	a, err := g.Assign("n1:8041", 4, 2)
	if err != nil || !reflect.DeepEqual(a, []string{"0", "1"}) {
		t.Fatalf("first container: %v, %v", a, err)
	}
	b, _ := g.Assign("n1:8041", 4, 2)
	if !reflect.DeepEqual(b, []string{"2", "3"}) {
		t.Fatalf("second container on the node: %v, want 2 3", b)
	}
	// Another node starts from 0.
	if c, _ := g.Assign("n2:8041", 4, 1); !reflect.DeepEqual(c, []string{"0"}) {
		t.Fatalf("other node: %v", c)
	}
	if _, err := g.Assign("n1:8041", 4, 1); err == nil {
		t.Fatal("a fifth GPU on a node of 4 was given")
	}
	if err := g.Release("n1:8041", a); err != nil {
		t.Fatal(err)
	}
	if d, _ := g.Assign("n1:8041", 4, 1); !reflect.DeepEqual(d, []string{"0"}) {
		t.Fatalf("after a release: %v, want the freed 0", d)
	}
	for _, bad := range [][]string{{"1"}, {"7"}, {"x"}, {"2", "2"}} {
		if err := g.Release("n1:8041", bad); err == nil {
			t.Errorf("releasing %v was accepted", bad)
		}
	}
	// The failed releases changed nothing: 2 and 3 are still held.
	if e, err := g.Assign("n1:8041", 4, 1); err != nil || !reflect.DeepEqual(e, []string{"1"}) {
		t.Fatalf("after refused releases: %v, %v, want 1", e, err)
	}
}
