package webui

import (
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchPages serves each path in turn, reporting beside the wall time
// the process's CPU time a page (cpu-ns/op): on a machine other work
// loads, the wall time of the same page varies fivefold, its CPU time
// far less (docs/ui.md, "What it costs").
func benchPages(b *testing.B, h http.Handler, paths ...string) {
	for _, path := range paths {
		b.Run(strings.NewReplacer("/", "_", "?", "_").Replace(path), func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if code, body := get(b, h, "GET", path); code != 200 {
					b.Fatal(code, body)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time the process has taken, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
