package wire

import (
	"testing"
	"time"
)

// BenchmarkRoundTrip measures what local mode's tiny tasks cost on the
// wire: the driver sends a LaunchBatch of 8 launches, the executor answers
// with a StatusBatch of 8 statuses, over loopback TCP.
func BenchmarkRoundTrip(b *testing.B) {
	const batch = 8
	driver, executor := connect(b)
	launches, statuses := launchBatch(batch), statusBatch(batch)
	go func() {
		for {
			if _, err := executor.Recv(); err != nil {
				return
			}
			if err := executor.Send(statuses); err != nil {
				return
			}
		}
	}()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if err := driver.Send(launches); err != nil {
			b.Fatal(err)
		}
		if _, err := driver.Recv(); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/elapsed, "roundtrips/s")
	b.ReportMetric(float64(b.N*batch)/elapsed, "tasks/s")
}
