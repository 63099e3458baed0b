package scheduler

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseAllocations checks that no input panics, that every error names
// the file, and that what parses is a set of pools the scheduler can use.
// Seeds are in testdata/fuzz/FuzzParseAllocations.
func FuzzParseAllocations(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		pools, err := ParseAllocations(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xml:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		names := make(map[string]bool)
		for _, p := range pools {
			switch {
			case p.Name == "":
				t.Fatalf("pool without a name: %+v", pools)
			case names[p.Name]:
				t.Fatalf("pool %q twice: %+v", p.Name, pools)
			case p.Weight < 1:
				t.Fatalf("pool %q: weight %d", p.Name, p.Weight)
			case p.MinShare < 0:
				t.Fatalf("pool %q: minShare %d", p.Name, p.MinShare)
			case p.Mode != FIFO && p.Mode != FAIR:
				t.Fatalf("pool %q: mode %d", p.Name, p.Mode)
			}
			names[p.Name] = true
		}
	})
}
