// Package metrics is the driver's Prometheus metrics, served at /metrics
// in the text exposition format (docs/metrics.md): tasks by state and
// pool, task durations, jobs, executors active by profile and those
// removed and lost so far, GPUs held and in use, each GPU's use and
// memory, executor losses by blame, and, on YARN, containers asked,
// allocated and released, the allocate's round-trip time, and the size
// of the journal the AM's next attempt would read (am/journal).
//
// They come from the same events as the web UI (am/history), handed over
// once per loop turn (Observe), and from what only the loop sees of the
// ResourceManager (containers.go). Metrics keeps its own registry, not
// Prometheus's global one, so that two drivers in one process (tests)
// never share figures.
//
// The caller's duties:
//   - call Observe and AllocateSent from one goroutine (the loop), in
//     the order things happened; AllocateTook, Allocated and the
//     journal's (JournalWritten, JournalRefused, from its writer) may be
//     called from any;
//   - serve Handler behind the same guard as the UI (webui.WebAccess on
//     YARN, a loopback address locally).
//
// Labels name pools, profiles, states and blame, never a task or job,
// and an executor only with a GPU's index, to name the GPU: a scrape's
// size grows with the pools in use (a forgotten pool's series go,
// pools.go), the profiles and the GPUs held (gpu_use.go) only.
package metrics
