package wire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

func sampleOf(index int, util *int, used, total *int64) gpuuse.Sample {
	return gpuuse.Sample{Index: index, UUID: fmt.Sprintf("GPU-%d", index), UtilizationPct: util, MemoryUsedMiB: used, MemoryTotalMiB: total}
}

func ptr[T any](v T) *T { return &v }

// Samples cross the wire as they were, absent figures absent.
func TestGPUSamplesRoundTrip(t *testing.T) {
	want := []gpuuse.Sample{sampleOf(0, ptr(37), ptr[int64](1024), ptr[int64](81559)), sampleOf(3, nil, nil, ptr[int64](16384)), sampleOf(5, ptr(0), ptr[int64](0), nil)}
	b, err := proto.Marshal(&Heartbeat{UnixNanos: 1, Gpus: GPUUses(want)})
	if err != nil {
		t.Fatal(err)
	}
	var h Heartbeat
	if err := proto.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	got, err := h.GPUSamples()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("GPUSamples = %+v, %v; want %+v", got, err, want)
	}
	if got, err := (&Heartbeat{}).GPUSamples(); err != nil || len(got) != 0 {
		t.Errorf("a heartbeat without GPUs: %v, %v", got, err)
	}
}

// What the driver is sent is held to what the executor's parser would
// have given: at most gpuuse.MaxGPUs (that many pass), figures in range.
func TestGPUSamplesRefusesWhatNoParserGives(t *testing.T) {
	many := func(n int) []*GPUUse {
		out := make([]*GPUUse, n)
		for i := range out {
			out[i] = &GPUUse{Index: uint32(i), Uuid: fmt.Sprint("GPU-", i)}
		}
		return out
	}
	if got, err := (&Heartbeat{Gpus: many(gpuuse.MaxGPUs)}).GPUSamples(); err != nil || len(got) != gpuuse.MaxGPUs {
		t.Errorf("%d samples: %d, %v", gpuuse.MaxGPUs, len(got), err)
	}
	for _, c := range []struct {
		gpus []*GPUUse
		err  string
	}{
		{many(gpuuse.MaxGPUs + 1), fmt.Sprintf("%d GPU samples; at most %d", gpuuse.MaxGPUs+1, gpuuse.MaxGPUs)},
		{[]*GPUUse{{Index: 1, Uuid: "GPU-a"}, {Index: 1, Uuid: "GPU-b"}}, "index 1 again"},
		{[]*GPUUse{{Index: 1 << 31, Uuid: "GPU-a"}}, "index out of 0..2147483647"},
		{[]*GPUUse{{Index: 0}}, `uuid ""`},
		{[]*GPUUse{{Index: 0, Uuid: "GPU-\n"}}, `uuid "GPU-\n"`},
		{[]*GPUUse{{Index: 0, Uuid: strings.Repeat("G", 129)}}, `uuid "GGGG`},
		{[]*GPUUse{{Index: 0, Uuid: "GPU-a", UtilizationPct: ptr[uint32](101)}}, "utilization 101%"},
		{[]*GPUUse{{Index: 0, Uuid: "GPU-a", MemoryUsedMib: ptr[uint64](1<<40 + 1)}}, "memory 1099511627777 MiB"},
		{[]*GPUUse{{Index: 0, Uuid: "GPU-a", MemoryTotalMib: ptr[uint64](1 << 63)}}, "memory -9223372036854775808 MiB"},
	} {
		_, err := (&Heartbeat{Gpus: c.gpus}).GPUSamples()
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: %v; want an error containing %q", c.gpus, err, c.err)
		}
	}
	// The bounds themselves pass.
	edge := []*GPUUse{{Index: 1<<31 - 1, Uuid: strings.Repeat("G", 128), UtilizationPct: ptr[uint32](100), MemoryUsedMib: ptr[uint64](1 << 40), MemoryTotalMib: ptr[uint64](1 << 40)}}
	if _, err := (&Heartbeat{Gpus: edge}).GPUSamples(); err != nil {
		t.Errorf("at the bounds: %v", err)
	}
}
