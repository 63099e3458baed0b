package executor

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzParseResources feeds arbitrary bytes to every parser of GPU
// addresses. None may panic; whatever they accept and check must survive a
// round trip through the task resources file, and a comma list must read
// back the same once joined.
func FuzzParseResources(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if addrs, err := parseDiscoveryOutput(data); err == nil && checkAddresses("fuzz", addrs) == nil {
			roundTrip(t, addrs)
		}
		for _, components := range [][]string{workerComponents, executorComponents} {
			if addrs, err := parseResourcesFile(data, components); err == nil && checkAddresses("fuzz", addrs) == nil {
				roundTrip(t, addrs)
			}
		}
		if addrs, err := splitAddressList("fuzz", string(data)); err == nil {
			again, err := splitAddressList("fuzz", strings.Join(addrs, ","))
			if err != nil || !slices.Equal(again, addrs) {
				t.Fatalf("%q: joined and split again = %q, %v", addrs, again, err)
			}
		}
	})
}

func roundTrip(t *testing.T, addrs []string) {
	t.Helper()
	var m map[string]struct {
		Name      string   `json:"name"`
		Addresses []string `json:"addresses"`
	}
	if err := json.Unmarshal(taskResourcesJSON(addrs), &m); err != nil {
		t.Fatalf("%q: task resources file does not parse: %v", addrs, err)
	}
	// No addresses give "{}", whose missing "gpu" reads as none.
	if gpu := m["gpu"]; !slices.Equal(gpu.Addresses, addrs) || len(addrs) > 0 && gpu.Name != "gpu" {
		t.Fatalf("task resources file gives %+v, want addresses %q", gpu, addrs)
	}
}
