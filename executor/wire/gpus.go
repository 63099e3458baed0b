package wire

import (
	"fmt"

	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// GPUUses is samples as a Heartbeat carries them.
func GPUUses(samples []gpuuse.Sample) []*GPUUse {
	out := make([]*GPUUse, len(samples))
	for i, s := range samples {
		u := &GPUUse{Index: uint32(s.Index), Uuid: s.UUID}
		if s.UtilizationPct != nil {
			pct := uint32(*s.UtilizationPct)
			u.UtilizationPct = &pct
		}
		if s.MemoryUsedMiB != nil {
			used := uint64(*s.MemoryUsedMiB)
			u.MemoryUsedMib = &used
		}
		if s.MemoryTotalMiB != nil {
			total := uint64(*s.MemoryTotalMiB)
			u.MemoryTotalMib = &total
		}
		out[i] = u
	}
	return out
}

// GPUSamples reads back the samples a heartbeat carries, held to what the
// executor's parser gives (gpuuse.Check; a number too large for its
// field wraps to one Check refuses): a peer holding the secret may still
// be wrong, and the driver keeps what it is sent.
func (h *Heartbeat) GPUSamples() ([]gpuuse.Sample, error) {
	uses := h.GetGpus()
	out := make([]gpuuse.Sample, len(uses))
	for i, u := range uses {
		s := gpuuse.Sample{Index: int(u.GetIndex()), UUID: u.GetUuid()}
		if u.UtilizationPct != nil {
			pct := int(u.GetUtilizationPct())
			s.UtilizationPct = &pct
		}
		if u.MemoryUsedMib != nil {
			used := int64(u.GetMemoryUsedMib())
			s.MemoryUsedMiB = &used
		}
		if u.MemoryTotalMib != nil {
			total := int64(u.GetMemoryTotalMib())
			s.MemoryTotalMiB = &total
		}
		out[i] = s
	}
	if err := gpuuse.Check(out); err != nil {
		return nil, fmt.Errorf("heartbeat: %w", err)
	}
	return out, nil
}
