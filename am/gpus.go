package am

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// What executors say their GPUs are doing (issue 25's per-GPU figures):
// each with GPUs and nvidia-smi samples them every
// spindle.executor.gpuSampleInterval and sends them in a heartbeat
// (executor/gpu_sampler.go); the loop keeps the latest of each live
// executor for the status. No samples, no figures: nothing here waits
// for them or misses them.

// readGPUSamples reads the samples a heartbeat carries, for its
// connection's reader: nil when it carries none, or samples no parser
// would have given, which it logs once a connection (warned).
func readGPUSamples(h *wire.Heartbeat, log logrus.FieldLogger, warned *bool) []gpuuse.Sample {
	if len(h.GetGpus()) == 0 {
		return nil
	}
	samples, err := h.GPUSamples()
	if err != nil && !*warned {
		*warned = true
		log.WithError(err).Warn("the executor's GPU figures are not shown")
	}
	return samples
}

// gpusSampled is the one way GPU figures reach the driver's state, and
// the hook for what else shows them (issue 25's UI and metrics): samples
// are executor's latest, come at now; nil samples say it has none any
// more (its connection ended). The status keeps only the latest, so it
// has no use for now; a record over time would. The figures last until
// the next call for the executor: a sampler that stops answering leaves
// the last ones.
func (d *Driver) gpusSampled(executor scheduler.ExecutorID, samples []gpuuse.Sample, now time.Time) {
	d.cfg.Observe.Metrics.GPUSampled(string(executor), samples)
	if samples == nil {
		delete(d.gpus, executor)
		return
	}
	d.gpus[executor] = samples
}

// withGPUs adds to st's executors their GPUs' latest figures. The
// samples are shared, not copied: the loop replaces an executor's, never
// changes them.
func (d *Driver) withGPUs(st core.Status) core.Status {
	for i := range st.Executors {
		st.Executors[i].GPUs = d.gpus[scheduler.ExecutorID(st.Executors[i].ID)]
	}
	return st
}
