package am

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
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
// executor's hello, until stop is closed.
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

// registerTimed plays a genuine executor from 127.0.0.1: it returns its
// connection once the driver has answered its Register, and how long that
// took from the first connection attempt.
func registerTimed(t *testing.T, addr, id string) (*wire.Conn, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	conn, err := wire.Dial(ctx, "tcp", addr, testSecret)
	if err != nil {
		t.Fatalf("the genuine executor, after %v: %v", time.Since(start), err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: id, Host: "h1", Cores: 1}}})
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	m, err := conn.Recv()
	if err != nil || m.GetRegistered() == nil {
		t.Fatalf("the genuine executor, after %v: %v, %v; want Registered", time.Since(start), m, err)
	}
	return conn, time.Since(start)
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
			d, done := runDriver(t, Config{}, 1)
			flood := openFlood(t, d.Addr(), floodSize)
			if tc.trickle {
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Go(func() { trickle(flood, stop) })
				t.Cleanup(func() { close(stop); wg.Wait() })
			}

			conn, took := registerTimed(t, d.Addr(), "e1")
			t.Logf("Dial and Register behind %d connections from 127.0.0.2: %v", floodSize, took)
			if took >= time.Second {
				t.Errorf("the genuine executor took %v to register, want under 1s", took)
			}

			// The cut-off connections' reports reach the loop after the
			// executor's registration (a connection goes before failures
			// still to report): give them a moment before the job ends
			// and its summary counts them.
			time.Sleep(time.Second)
			finishJob(t, conn)
			sum := <-done
			if !sum.Succeeded || sum.Rejected < floodCut {
				t.Errorf("summary %+v; want the job done and the %d connections cut off counted as rejected", sum, floodCut)
			}
		})
	}
}

// finishJob plays the executor conn through the one-task job of runDriver.
func finishJob(t *testing.T, conn *wire.Conn) {
	t.Helper()
	m, err := conn.Recv()
	if err != nil || len(m.GetLaunchBatch().GetLaunches()) != 1 {
		t.Fatalf("want one task: %v, %v", m, err)
	}
	l := m.GetLaunchBatch().GetLaunches()[0]
	st := &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: []*wire.Status{st}}}})
}

// An executor that authenticates but never registers is hung up on at
// registerTimeout.
func TestSilentExecutorIsCutOff(t *testing.T) {
	t.Parallel()
	d, _ := runDriver(t, Config{}, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(registerTimeout + 5*time.Second))
	if _, err := conn.Recv(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Recv: %v; want the driver to hang up", err)
	}
}
