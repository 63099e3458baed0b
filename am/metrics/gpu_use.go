package metrics

import (
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// gpuUse exports each live executor's GPUs' latest figures, as
// nvidia-smi gave them, at each scrape: a gone executor's series go with
// it rather than standing still. A figure nvidia-smi had not is no
// series. A GPU is named by its executor and nvidia-smi's index, the one
// place a label carries an executor id: what the UI's executors page
// and a task's row name it by. Only live executors' GPUs have series, so
// a scrape holds at most one a GPU held per figure.
type gpuUse struct {
	mu     sync.Mutex
	latest map[string][]gpuuse.Sample // by executor

	utilization, memoryUsed, memoryTotal *prometheus.Desc
}

func newGPUUse() *gpuUse {
	labels := []string{"executor", "gpu"}
	return &gpuUse{latest: map[string][]gpuuse.Sample{},
		utilization: prometheus.NewDesc(Namespace+"_gpu_utilization_ratio",
			"The share of the last sample period in which a kernel ran on the GPU (nvidia-smi's utilization.gpu), 0 to 1.", labels, nil),
		memoryUsed:  prometheus.NewDesc(Namespace+"_gpu_memory_used_bytes", "The GPU's memory in use (nvidia-smi's memory.used).", labels, nil),
		memoryTotal: prometheus.NewDesc(Namespace+"_gpu_memory_total_bytes", "The GPU's memory (nvidia-smi's memory.total).", labels, nil)}
}

// GPUSampled takes an executor's latest GPU figures; nil forgets them
// (it is gone, or has none any more).
func (m *Metrics) GPUSampled(executor string, samples []gpuuse.Sample) {
	if m == nil {
		return
	}
	g := m.gpuUse
	g.mu.Lock()
	defer g.mu.Unlock()
	if samples == nil {
		delete(g.latest, executor)
		return
	}
	g.latest[executor] = samples
}

// forget drops a removed executor's figures: its GPUs' series go with
// it even where its connection outlives it, so that the series are never
// more than the GPUs held.
func (g *gpuUse) forget(executor string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.latest, executor)
}

func (g *gpuUse) Describe(ch chan<- *prometheus.Desc) {
	ch <- g.utilization
	ch <- g.memoryUsed
	ch <- g.memoryTotal
}

func (g *gpuUse) Collect(ch chan<- prometheus.Metric) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for executor, samples := range g.latest {
		for _, s := range samples {
			gpu := strconv.Itoa(s.Index)
			if s.UtilizationPct != nil {
				ch <- prometheus.MustNewConstMetric(g.utilization, prometheus.GaugeValue, float64(*s.UtilizationPct)/100, executor, gpu)
			}
			if s.MemoryUsedMiB != nil {
				ch <- prometheus.MustNewConstMetric(g.memoryUsed, prometheus.GaugeValue, float64(*s.MemoryUsedMiB)*(1<<20), executor, gpu)
			}
			if s.MemoryTotalMiB != nil {
				ch <- prometheus.MustNewConstMetric(g.memoryTotal, prometheus.GaugeValue, float64(*s.MemoryTotalMiB)*(1<<20), executor, gpu)
			}
		}
	}
}
