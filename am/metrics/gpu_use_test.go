package metrics

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// Each live executor's GPUs' latest figures are series; a figure
// nvidia-smi had not is none, and a gone executor's series go with it:
// when its connection ends, or when it is removed, whichever is first.
func TestGPUFiguresAreTheLatestOfLiveExecutors(t *testing.T) {
	m := New()
	pct, used, total := 37, int64(1024), int64(81559)
	m.GPUSampled("e1", []gpuuse.Sample{{Index: 0, UtilizationPct: &pct, MemoryUsedMiB: &used, MemoryTotalMiB: &total}, {Index: 3, MemoryTotalMiB: &total}})
	fams := scrape(t, m)
	for _, c := range []struct {
		name, gpu string
		want      float64
	}{
		{"spindle_gpu_utilization_ratio", "0", 0.37},
		{"spindle_gpu_memory_used_bytes", "0", 1024 << 20},
		{"spindle_gpu_memory_total_bytes", "0", 81559 << 20},
		{"spindle_gpu_memory_total_bytes", "3", 81559 << 20},
		{"spindle_gpu_utilization_ratio", "3", -1}, // nvidia-smi had none
	} {
		if got := value(fams, c.name, "executor=e1", "gpu="+c.gpu); got != c.want {
			t.Errorf("%s{gpu=%s} = %v, want %v", c.name, c.gpu, got, c.want)
		}
	}
	pct = 90
	m.GPUSampled("e1", []gpuuse.Sample{{Index: 0, UtilizationPct: &pct}})
	if got := value(scrape(t, m), "spindle_gpu_utilization_ratio", "executor=e1", "gpu=0"); got != 0.9 {
		t.Errorf("after a newer sample: %v, want 0.9", got)
	}
	m.GPUSampled("e1", nil)
	if f := scrape(t, m)["spindle_gpu_utilization_ratio"]; f != nil {
		t.Errorf("a gone executor's GPUs still have series: %v", f)
	}
	m.Observe([]history.Event{{ExecutorAdded: &history.ExecutorAdded{ID: "e2", GPUs: []string{"0"}}}})
	m.GPUSampled("e2", []gpuuse.Sample{{Index: 0, UtilizationPct: &pct}})
	m.Observe([]history.Event{{ExecutorRemoved: &history.ExecutorRemoved{ID: "e2", Lost: true}}})
	if f := scrape(t, m)["spindle_gpu_utilization_ratio"]; f != nil {
		t.Errorf("a removed executor's GPUs still have series, its connection not yet ended: %v", f)
	}
	var none *Metrics
	none.GPUSampled("e1", nil) // a driver without metrics
}
