package am_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/amtest"
)

// reopeningFlood keeps n idle connections open to addr from 127.0.0.1,
// opening each again as soon as the other end cuts it, until ctx ends;
// wait returns how many times they were cut.
func reopeningFlood(ctx context.Context, addr string, n int) (wait func() int) {
	var wg sync.WaitGroup
	var cuts atomic.Int64
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				var d net.Dialer
				nc, err := d.DialContext(ctx, "tcp", addr)
				if err != nil {
					select {
					case <-ctx.Done():
					case <-time.After(10 * time.Millisecond):
					}
					continue
				}
				stop := context.AfterFunc(ctx, func() { nc.Close() })
				io.Copy(io.Discard, nc) // until cut
				if stop() {
					cuts.Add(1)
				}
				nc.Close()
			}
		})
	}
	return func() int { wg.Wait(); return int(cuts.Load()) }
}

// Idle connections from the clients' own address, opened again as soon as
// the session cuts them, hold no client out of a session's TCP port (the
// AM's, on YARN): for 10 s, a genuine client's submits are accepted within
// a second each, behind 16, 300 and 1,000 of them; and the driver's log
// grows by under 100 KB.
func TestSessionFloodFromTheClientsAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("floods for 10 s")
	}
	for _, n := range []int{16, 300, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			logged := &amtest.Buffer{}
			log := logrus.New()
			log.SetOutput(logged)
			d := startSession(t, amtest.WithLog(log))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			wait := reopeningFlood(ctx, d.ClientAddr(), n)
			var submits int
			var slowest time.Duration
			for ctx.Err() == nil {
				start := time.Now()
				out, err := d.Client().Request(amtest.SubmitJob("name: q\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n", false))
				took := time.Since(start)
				if err != nil || len(out) != 1 || out[0].GetJobAccepted() == nil {
					t.Fatalf("submit %d behind %d flooding connections, after %v: %v, %v", submits, n, took, out, err)
				}
				if took >= time.Second {
					t.Errorf("submit %d behind %d flooding connections accepted after %v, want under 1s", submits, n, took)
				}
				submits++
				slowest = max(slowest, took)
				select { // the client's pace
				case <-ctx.Done():
				case <-time.After(250 * time.Millisecond):
				}
			}
			cuts := wait()
			t.Logf("%d submits behind %d connections, the slowest accepted in %v; the flood was cut %d times; the driver logged %d bytes",
				submits, n, slowest.Round(time.Millisecond), cuts, len(logged.String()))
			if submits < 10 || cuts < n {
				t.Errorf("%d submits and %d cuts: want many submits, and every flooding connection cut at least once", submits, cuts)
			}
			if b := len(logged.String()); b >= 100_000 {
				t.Errorf("the driver's log grew by %d bytes during the flood, want under 100 KB", b)
			}
		})
	}
}
