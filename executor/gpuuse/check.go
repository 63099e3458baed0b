package gpuuse

import (
	"fmt"
	"math"
)

// The bounds of a Sample's fields, which Parse and Check hold.
const (
	// MaxIndex is the highest GPU index taken: NVML numbers a machine's
	// GPUs from 0, and the wire carries a uint32.
	MaxIndex = math.MaxInt32
	// MaxMemoryMiB is far above any GPU's memory (2^40 MiB, an exbibyte).
	MaxMemoryMiB = 1 << 40
	// maxUUID bounds a UUID: NVIDIA's are 40 characters ("GPU-" and 36).
	maxUUID = 128
)

// Check holds samples that came from elsewhere (a driver reading an
// executor's heartbeat) to what Parse gives: at most MaxGPUs, of distinct
// indices, each with a UUID and its figures in range. The error names
// the first sample at fault.
func Check(samples []Sample) error {
	if len(samples) > MaxGPUs {
		return fmt.Errorf("%d GPU samples; at most %d expected", len(samples), MaxGPUs)
	}
	seen := make(map[int]bool, len(samples))
	for i, s := range samples {
		if err := checkSample(s); err != nil {
			return fmt.Errorf("GPU sample %d (index %d): %w", i, s.Index, err)
		}
		if seen[s.Index] {
			return fmt.Errorf("GPU sample %d: index %d again", i, s.Index)
		}
		seen[s.Index] = true
	}
	return nil
}

func checkSample(s Sample) error {
	switch {
	case s.Index < 0 || s.Index > MaxIndex:
		return fmt.Errorf("index out of 0..%d", MaxIndex)
	case !validUUID(s.UUID):
		return fmt.Errorf("uuid %q: want the GPU's name, such as GPU-8f2e…", clip(s.UUID))
	case s.UtilizationPct != nil && (*s.UtilizationPct < 0 || *s.UtilizationPct > 100):
		return fmt.Errorf("utilization %d%%: want 0 to 100", *s.UtilizationPct)
	}
	for _, m := range []*int64{s.MemoryUsedMiB, s.MemoryTotalMiB} {
		if m != nil && (*m < 0 || *m > MaxMemoryMiB) {
			return fmt.Errorf("memory %d MiB: want 0 to %d", *m, int64(MaxMemoryMiB))
		}
	}
	return nil
}

// validUUID holds for a name nvidia-smi could have printed: plain text,
// not a bracketed "no value", not too long.
func validUUID(u string) bool {
	return u != "" && len(u) <= maxUUID && !absent(u) && printable(u)
}
