package executor

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// FuzzParseResources feeds arbitrary bytes to every parser of GPU (and
// other resources') addresses. None may panic; whatever they accept and
// check must survive a round trip through the task resources file, and a
// comma list must read back the same once joined.
func FuzzParseResources(f *testing.F) {
	for _, seed := range []string{`{"name":"gpu","addresses":["0","1"]}`, `{"name":"fpga","addresses":["a"]}`,
		`[{"id":{"componentName":"spark.worker","resourceName":"fpga"},"addresses":["0","1"]},{"id":{"componentName":"spindle.executor","resourceName":"gpu"},"addresses":["3"]}]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, resource := range []string{gpuResource, "fpga"} {
			if addrs, err := parseDiscoveryOutput(data, resource); err == nil && checkAddresses("fuzz", addrs) == nil {
				roundTrip(t, resource, addrs)
			}
			for _, components := range [][]string{workerComponents, executorComponents} {
				if addrs, err := parseResourcesFile(data, components, resource); err == nil && checkAddresses("fuzz", addrs) == nil {
					roundTrip(t, resource, addrs)
				}
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
			roundTrip(t, gpuResource, addrs)
		}
	})
}

// roundTrip checks that addrs of resource read back from a task's
// resources file, beside another resource's.
func roundTrip(t *testing.T, resource string, addrs []string) {
	t.Helper()
	gpus, others := addrs, []*wire.Resource{{Name: "tpu", Addresses: []string{"t0"}}}
	if resource != gpuResource {
		gpus, others = nil, append(others, &wire.Resource{Name: resource, Addresses: addrs})
	}
	var m map[string]struct {
		Name      string   `json:"name"`
		Addresses []string `json:"addresses"`
	}
	if err := json.Unmarshal(taskResourcesJSON(gpus, others), &m); err != nil {
		t.Fatalf("%q: task resources file does not parse: %v", addrs, err)
	}
	// No addresses leave the resource out, which reads as none.
	if got := m[resource]; !slices.Equal(got.Addresses, addrs) || len(addrs) > 0 && got.Name != resource {
		t.Fatalf("task resources file gives %s %+v, want addresses %q", resource, got, addrs)
	}
	if tpu := m["tpu"]; tpu.Name != "tpu" || !slices.Equal(tpu.Addresses, []string{"t0"}) {
		t.Fatalf("task resources file gives tpu %+v beside %s", tpu, resource)
	}
}
