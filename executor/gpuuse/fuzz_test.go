package gpuuse

import (
	"encoding/json"
	"testing"
)

// FuzzParseGPUSample feeds arbitrary output to the nvidia-smi reader. It
// may not panic; what it accepts is at most MaxGPUs samples of distinct
// indices, each with a UUID and its figures in range, and it survives a
// round trip through JSON, as the driver's status serves it.
func FuzzParseGPUSample(f *testing.F) {
	for _, seed := range []string{twoGPUs, "", "\n", "2, GPU-x, [N/A], [Not Supported], 16384",
		"0, GPU-a, 101, 0, 0", "0, GPU-a, 1, 4\n", "0,GPU-a,1,2,3\n0,GPU-b,1,2,3",
		"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		samples, err := Parse(out)
		if err != nil {
			return
		}
		if len(samples) > MaxGPUs {
			t.Fatalf("%d samples", len(samples))
		}
		seen := map[int]bool{}
		for _, s := range samples {
			switch {
			case seen[s.Index] || s.Index < 0:
				t.Fatalf("index %d", s.Index)
			case s.UUID == "":
				t.Fatal("no uuid")
			case s.UtilizationPct != nil && (*s.UtilizationPct < 0 || *s.UtilizationPct > 100):
				t.Fatalf("utilization %d", *s.UtilizationPct)
			case s.MemoryUsedMiB != nil && *s.MemoryUsedMiB < 0, s.MemoryTotalMiB != nil && *s.MemoryTotalMiB < 0:
				t.Fatal("negative memory")
			}
			seen[s.Index] = true
		}
		js, err := json.Marshal(samples)
		if err != nil {
			t.Fatal(err)
		}
		var back []Sample
		if err := json.Unmarshal(js, &back); err != nil || len(back) != len(samples) {
			t.Fatalf("JSON round trip: %d samples, %v", len(back), err)
		}
	})
}
