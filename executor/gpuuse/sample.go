package gpuuse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Query is the nvidia-smi arguments whose output Parse reads, less the
// GPUs to ask about (--id=…): one line per GPU, its fields in this order,
// no header and no units ("0, GPU-…, 37, 1024, 81559").
var Query = []string{"--query-gpu=index,uuid,utilization.gpu,memory.used,memory.total", "--format=csv,noheader,nounits"}

// MaxGPUs bounds the lines Parse takes and the samples a driver keeps
// per executor: the largest machines hold 16 GPUs; more lines are not the
// answer expected.
const MaxGPUs = 64

// MaxOutput bounds the nvidia-smi output read: MaxGPUs lines of five short
// fields fit many times over.
const MaxOutput = 16 << 10

// Sample is one GPU's use at one moment. A figure nvidia-smi could not
// give ("[N/A]", "[Not Supported]": a GPU without the counter, a driver
// that refuses) is absent, nil, never a made-up zero.
type Sample struct {
	// Index is nvidia-smi's (NVML's) number of the GPU, UUID its
	// "GPU-…" name: the two ways an executor's GPU addresses name it.
	Index int    `json:"index"`
	UUID  string `json:"uuid"`
	// UtilizationPct is the percent of the last sample period in which a
	// kernel ran (utilization.gpu), 0 to 100.
	UtilizationPct *int `json:"utilization_pct,omitempty"`
	// MemoryUsedMiB and MemoryTotalMiB are its memory, in MiB.
	MemoryUsedMiB  *int64 `json:"memory_used_mib,omitempty"`
	MemoryTotalMiB *int64 `json:"memory_total_mib,omitempty"`
}

// Parse reads the output of nvidia-smi with Query: a line per GPU,
// nothing else. A field in brackets ("[N/A]") is a figure nvidia-smi
// does not have, absent from the Sample; but a line must have its five
// fields, its index and UUID, and every figure it gives must be a whole
// number in range. An error names the line and the field.
func Parse(out []byte) ([]Sample, error) {
	if len(out) > MaxOutput {
		return nil, fmt.Errorf("nvidia-smi printed %d bytes; at most %d expected", len(out), MaxOutput)
	}
	text := strings.TrimSuffix(string(out), "\n")
	if text == "" {
		return nil, nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) > MaxGPUs {
		return nil, fmt.Errorf("nvidia-smi printed %d lines; at most %d GPUs expected", len(lines), MaxGPUs)
	}
	samples := make([]Sample, 0, len(lines))
	seen := map[int]bool{}
	for i, line := range lines {
		s, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("nvidia-smi line %d %q: %w", i+1, clip(line), err)
		}
		if seen[s.Index] {
			return nil, fmt.Errorf("nvidia-smi line %d %q: GPU index %d again", i+1, clip(line), s.Index)
		}
		seen[s.Index] = true
		samples = append(samples, s)
	}
	return samples, nil
}

// parseLine reads "index, uuid, utilization, used, total".
func parseLine(line string) (Sample, error) {
	fields := strings.Split(line, ",")
	if len(fields) != 5 {
		return Sample{}, fmt.Errorf("%d fields; want 5 (index, uuid, utilization.gpu, memory.used, memory.total)", len(fields))
	}
	for i, f := range fields {
		fields[i] = strings.TrimSpace(f)
	}
	var s Sample
	index, ok, err := figure("index", fields[0], 0, MaxIndex)
	switch {
	case err != nil:
		return Sample{}, err
	case !ok:
		return Sample{}, fmt.Errorf("index %q: every GPU has one", fields[0])
	}
	s.Index = int(index)
	if s.UUID = fields[1]; !validUUID(s.UUID) {
		return Sample{}, fmt.Errorf("uuid %q: want the GPU's name, such as GPU-8f2e…", s.UUID)
	}
	if util, ok, err := figure("utilization.gpu", fields[2], 0, 100); err != nil {
		return Sample{}, err
	} else if ok {
		u := int(util)
		s.UtilizationPct = &u
	}
	for _, m := range []struct {
		name, text string
		to         **int64
	}{{"memory.used", fields[3], &s.MemoryUsedMiB}, {"memory.total", fields[4], &s.MemoryTotalMiB}} {
		v, ok, err := figure(m.name, m.text, 0, MaxMemoryMiB)
		if err != nil {
			return Sample{}, err
		}
		if ok {
			*m.to = &v
		}
	}
	return s, nil
}

// figure reads a whole number in [lo, hi]; ok is false for an absent one.
func figure(name, text string, lo, hi int64) (v int64, ok bool, err error) {
	if absent(text) {
		return 0, false, nil
	}
	v, perr := strconv.ParseInt(text, 10, 64)
	if perr != nil || v < lo || v > hi || text[0] == '+' {
		return 0, false, fmt.Errorf("%s %q: want a whole number from %d to %d, or [N/A]", name, clip(text), lo, hi)
	}
	return v, true, nil
}

// absent is nvidia-smi's way of giving no value: a word or two in
// brackets ("[N/A]", "[Not Supported]", "[Unknown Error]").
func absent(field string) bool {
	if len(field) < 3 || field[0] != '[' || field[len(field)-1] != ']' {
		return false
	}
	inner := field[1 : len(field)-1]
	return !strings.ContainsAny(inner, "[]") && printable(inner)
}

// printable holds for plain ASCII text, what nvidia-smi prints.
func printable(s string) bool {
	return bytes.IndexFunc([]byte(s), func(r rune) bool { return r < ' ' || r > '~' }) < 0
}

// clip keeps an error's quote of bad output short.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
