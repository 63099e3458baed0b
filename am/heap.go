package am

import (
	"runtime"
	"runtime/metrics"
)

// liveHeapMetric is the live heap as the last garbage collection found
// it: what the driver holds, without the garbage not yet collected.
const liveHeapMetric = "/gc/heap/live:bytes"

// liveHeap is the driver's live heap in bytes, after a collection of its
// own when collect is set (else as of the last one, which on an idle
// driver may be two minutes old). It is read in the client's goroutine,
// not the loop's: a collection does not hold up the driver's decisions.
func liveHeap(collect bool) uint64 {
	if collect {
		runtime.GC()
	}
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0 // a runtime without the metric
	}
	return s[0].Value.Uint64()
}
