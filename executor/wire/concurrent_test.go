package wire

import (
	"sync"
	"testing"
)

// Frames from concurrent Sends arrive whole, each once, and each sender's in
// its order.
func TestConcurrentSend(t *testing.T) {
	driver, executor := connect(t)
	const senders, each = 32, 200
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				m := &Envelope{Message: &Envelope_Heartbeat{Heartbeat: &Heartbeat{UnixNanos: int64(g*each + i)}}}
				if err := executor.Send(m); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	next := make([]int, senders)
	for range senders * each {
		m, err := driver.Recv()
		if err != nil {
			t.Fatal(err)
		}
		v := int(m.GetHeartbeat().GetUnixNanos())
		g, i := v/each, v%each
		if next[g] != i {
			t.Fatalf("sender %d: got message %d, want %d", g, i, next[g])
		}
		next[g]++
	}
	wg.Wait()
}
