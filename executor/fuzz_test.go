package executor

import (
	"encoding/json"
	"slices"
	"strconv"
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

// FuzzParseNodeManagerGPUs feeds arbitrary answers and container ids to
// the reader of a NodeManager's GPU assignments. It may not panic, and it
// gives exactly one of addresses, a reason to look elsewhere, or an error;
// addresses are distinct decimal indices in increasing order, fit for
// CUDA_VISIBLE_DEVICES.
func FuzzParseNodeManagerGPUs(f *testing.F) {
	for _, body := range []string{nmAnswerIndexed, nmAnswerWrapped, nmAnswer350, nmAnswerOthers, nmAnswerNoPlugin,
		`{}`, `null`, `[]`, `{"assignedGpuDevices":[{"index":-1,"containerId":"` + ourContainer + `"}]}`,
		`{"assignedGpuDevices":[{"index":9223372036854775807,"containerId":"` + ourContainer + `"},{"index":0,"containerId":"` + ourContainer + `"}]}`,
		`{"nmGpuResourceInfo":null,"assignedGpuDevices":[{"index":1,"containerId":"` + ourContainer + `"}]}`} {
		f.Add([]byte(body), ourContainer)
	}
	f.Add([]byte(`{"assignedGpuDevices":[{"index":0}]}`), "")
	f.Fuzz(func(t *testing.T, body []byte, containerID string) {
		addrs, why, err := parseNodeManagerGPUs(body, containerID)
		switch {
		case err != nil:
			if addrs != nil || why != "" {
				t.Fatalf("error %v with addresses %q, reason %q", err, addrs, why)
			}
		case why != "":
			if addrs != nil {
				t.Fatalf("reason %q with addresses %q", why, addrs)
			}
		default:
			if len(addrs) == 0 {
				t.Fatal("no addresses, no reason, no error")
			}
			if err := checkAddresses("fuzz", addrs); err != nil {
				t.Fatal(err)
			}
			prev := int64(-1)
			for _, a := range addrs {
				n, err := strconv.ParseInt(a, 10, 64)
				if err != nil || n <= prev || strconv.FormatInt(n, 10) != a {
					t.Fatalf("addresses %q are not distinct decimal indices in increasing order", addrs)
				}
				prev = n
			}
			roundTrip(t, addrs)
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
