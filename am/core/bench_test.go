package core_test

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/coretest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// liveHeap is the heap's live bytes after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkBytesPerWaitingTask is what a waiting task costs a session: a
// job of a million tasks submitted to a core whose one executor runs one
// of them, the live heap after against before, per task. The figure
// docs/sessions.md gives for spindle.session.maxPendingTasks.
func BenchmarkBytesPerWaitingTask(b *testing.B) {
	const tasks = 1_000_000
	var perTask float64
	for b.Loop() {
		h, err := coretest.New(core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}}})
		if err != nil {
			b.Fatal(err)
		}
		h.Register(b, "e1", 1)
		h.Ready()
		spec, err := jobspec.Short("big", tasks, []string{"sleep", "600"}, jobspec.Defaults{CPUs: 1, MaxAttempts: 4})
		if err != nil {
			b.Fatal(err)
		}
		before := liveHeap()
		if _, err := h.Core.Submit(h.Now, spec, nil); err != nil {
			b.Fatal(err)
		}
		if n := len(h.Ready().Launches); n != 1 {
			b.Fatalf("%d launches, want 1", n)
		}
		perTask = float64(int64(liveHeap())-int64(before)) / tasks
		runtime.KeepAlive(h)
	}
	b.ReportMetric(perTask, "bytes/task")
}
