package am_test

import (
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
)

// floodSize is how many connections the flood opens from one address:
// past the bound of one address's handshakes in progress, so that its
// oldest are cut off.
const floodSize = 1500

// floodCut is how many of the flood's connections the driver cuts off: the
// ones past the bound of 1024 handshakes from one address.
const floodCut = floodSize - 1024

// openFlood opens n plain connections to addr from 127.0.0.2 (Linux routes
// all of 127/8 to loopback), while the genuine executor dials from
// 127.0.0.1: another host, as far as the driver can tell.
func openFlood(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, nc := range conns {
			nc.Close()
		}
	})
	for range n {
		nc, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("opening the flood: %v", err)
		}
		conns = append(conns, nc)
	}
	return conns
}

// trickle sends a byte a second on each connection, the start of an
// executor's hello, until stop is closed: the flood's pace, not a wait.
func trickle(conns []net.Conn, stop <-chan struct{}) {
	hello := []byte("SPWR\x01E")
	for i := 0; ; i = (i + 1) % len(hello) {
		for _, nc := range conns {
			nc.SetWriteDeadline(time.Now().Add(10 * time.Millisecond))
			nc.Write(hello[i : i+1]) // a connection the driver closed fails: no matter
		}
		select {
		case <-stop:
			return
		case <-time.After(time.Second):
		}
	}
}

// A flood of connections from one address, idle or sending a byte a
// second, delays a genuine executor's registration from another by less
// than a second, and each connection cut off is counted.
func TestFloodDoesNotDelayRegistration(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trickle bool
	}{{"idle", false}, {"a byte a second", true}} {
		t.Run(tc.name, func(t *testing.T) {
			d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
			flood := openFlood(t, d.Addr(), floodSize)
			if tc.trickle {
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Go(func() { trickle(flood, stop) })
				t.Cleanup(func() { close(stop); wg.Wait() })
			}

			start := time.Now()
			e := d.Register(t, "e1")
			e.Registered(t)
			took := time.Since(start)
			t.Logf("Dial and Register behind %d connections from 127.0.0.2: %v", floodSize, took)
			if took >= time.Second {
				t.Errorf("the genuine executor took %v to register, want under 1s", took)
			}

			// The cut-off connections' reports reach the loop after the
			// executor's registration (a connection goes before failures
			// still to report): the job ends once they are in, and its
			// summary counts them.
			d.Await(t, "the flood's connections cut off counted", func(turn am.Turn) bool { return turn.Rejected() >= floodCut })
			e.Report(t, amtest.Succeeded(e.Launches(t)[0]))
			if sum := d.Wait(t).Summary; !sum.Succeeded || sum.Rejected < floodCut {
				t.Errorf("summary %+v; want the job done and the %d connections cut off counted as rejected", sum, floodCut)
			}
		})
	}
}

// An executor that authenticates but never registers is hung up on at
// the register timeout.
func TestSilentExecutorIsCutOff(t *testing.T) {
	t.Parallel()
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	conn := d.Dial(t)
	conn.SetReadDeadline(time.Now().Add(am.RegisterTimeout + 5*time.Second))
	if _, err := conn.Recv(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Recv: %v; want the driver to hang up", err)
	}
}
