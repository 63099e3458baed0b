package wire

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// rawDialFrom opens a plain TCP connection from source, an address of this
// machine (Linux routes all of 127/8 to loopback), to play another host.
func rawDialFrom(t testing.TB, source, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// handshakeFrom plays one executor's handshake from source, without Dial's
// second tries.
func handshakeFrom(t testing.TB, source, addr string) (*Conn, error) {
	t.Helper()
	c, err := handshake(context.Background(), rawDialFrom(t, source, addr), testSecret, roleExecutor, HandshakeTimeout)
	if c != nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

func listenLimitsT(t testing.TB, lim limits) *Listener {
	t.Helper()
	l, err := listen("tcp", "127.0.0.1:0", testSecret, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// One address may have maxPeerHandshakes handshakes in progress: its
// connection that takes the last slot is served, the next one is closed
// at once and reported, and other addresses are not held up meanwhile.
func TestPeerHandshakeLimit(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	addr := l.Addr().String()
	for range maxPeerHandshakes - 1 {
		rawDialFrom(t, "127.0.0.2", addr) // silent
	}
	if _, err := handshakeFrom(t, "127.0.0.2", addr); err != nil {
		t.Fatalf("the executor taking the last slot of its address: %v", err)
	}
	if _, err := acceptT(t, l); err != nil {
		t.Fatalf("Accept at the limit: %v", err)
	}

	rawDialFrom(t, "127.0.0.2", addr) // the limit again, all silent
	if _, err := handshakeFrom(t, "127.0.0.2", addr); !errors.Is(err, errDropped) {
		t.Fatalf("one past the limit: %v, want the connection closed before the driver's hello", err)
	}
	_, err := acceptT(t, l)
	if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "from 127.0.0.2, the most one address may have") {
		t.Fatalf("Accept one past the limit: %v, want a refusal naming the address", err)
	}
	t.Log(err)

	dialT(t, addr, testSecret) // from 127.0.0.1
	if _, err := acceptT(t, l); err != nil {
		t.Fatalf("another address, while 127.0.0.2 is at its limit: %v", err)
	}
}

// At the total bound, the address holding the most handshakes gives up its
// oldest to a newcomer from an address holding fewer; a newcomer from the
// busiest address is refused instead.
func TestBusiestPeerGivesWay(t *testing.T) {
	l := listenLimitsT(t, limits{timeout: HandshakeTimeout, perPeer: 3, total: 4})
	addr := l.Addr().String()
	oldest := rawDialFrom(t, "127.0.0.2", addr)
	rawDialFrom(t, "127.0.0.2", addr)
	rawDialFrom(t, "127.0.0.3", addr)
	rawDialFrom(t, "127.0.0.3", addr)

	if _, err := handshakeFrom(t, "127.0.0.2", addr); !errors.Is(err, errDropped) {
		t.Fatalf("a newcomer from a busiest address: %v, want it refused", err)
	}
	if _, err := acceptT(t, l); !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "the most the driver runs at once") {
		t.Fatalf("Accept: %v, want the refusal at the total bound", err)
	}

	if _, err := handshakeFrom(t, "127.0.0.1", addr); err != nil {
		t.Fatalf("a newcomer from an address holding none: %v", err)
	}
	if got := readAll(t, oldest); len(got) != 0 {
		t.Errorf("the evicted connection received %d bytes", len(got))
	}
	var conns, evicted int
	for range 2 {
		c, err := acceptT(t, l)
		switch {
		case c != nil:
			conns++
		case errors.Is(err, ErrHandshake) && errors.Is(err, errEvicted) && strings.Contains(err.Error(), "127.0.0.2"):
			evicted++
			t.Log(err)
		default:
			t.Errorf("Accept: %v", err)
		}
	}
	if conns != 1 || evicted != 1 {
		t.Errorf("accepted %d and evicted %d, want the newcomer and the oldest of 127.0.0.2", conns, evicted)
	}
}

// The deadline is the whole handshake's: a peer that sends a byte a second
// is cut at HandshakeTimeout, long before its hello is complete.
func TestTricklingClientIsCutOff(t *testing.T) {
	t.Parallel()
	l := listenT(t, testSecret, HandshakeTimeout)
	nc := rawDial(t, l.Addr().String())
	sent := make(chan int, 1)
	go func() {
		h := newHello(roleExecutor)
		n := 0
		for ; n < helloSize-1; n++ {
			if _, err := nc.Write(h[n : n+1]); err != nil {
				break
			}
			time.Sleep(time.Second)
		}
		sent <- n
	}()
	start := time.Now()
	readAll(t, nc)
	cut := time.Since(start)
	nc.Close() // ends the trickle
	_, err := acceptT(t, l)
	if !errors.Is(err, ErrHandshake) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Accept: %v, want ErrHandshake and a deadline", err)
	}
	if n := <-sent; n >= helloSize-1 {
		t.Errorf("the peer trickled all %d bytes it meant to before it was cut", n)
	}
	t.Logf("cut after %v: %v", cut.Round(time.Millisecond), err)
}

// An executor that its driver refuses for now, its address being at its
// limit, connects again until it gets in.
func TestDialTriesAgainWhenRefused(t *testing.T) {
	const timeout = 300 * time.Millisecond
	l := listenLimitsT(t, limits{timeout: timeout, perPeer: 2, total: maxHandshakes})
	addr := l.Addr().String()
	rawDial(t, addr) // from 127.0.0.1, silent until the deadline
	rawDial(t, addr)
	start := time.Now()
	dialT(t, addr, testSecret)
	t.Logf("in after %v", time.Since(start).Round(time.Millisecond))
	// The silent connections' deadlines passed before it got in, so
	// Accept reports its refusals before their two failures; its own
	// connection reaches Accept once the driver's side of the handshake
	// is done too, which may be after the dialer's (seen under -race on
	// a loaded machine), so Accept is asked until it has come.
	var refused, conns int
	for cut := 0; cut < 2 || conns == 0; {
		c, err := acceptT(t, l)
		switch {
		case c != nil:
			conns++
		case errors.Is(err, os.ErrDeadlineExceeded):
			cut++
		case errors.Is(err, ErrHandshake) && strings.Contains(err.Error(), "the most one address may have"):
			refused++
		default:
			t.Fatalf("Accept: %v", err)
		}
	}
	if conns != 1 || refused == 0 {
		t.Errorf("accepted %d, refused %d times; want it refused, then in", conns, refused)
	}
}

// Every refused or failed connection is reported once, in order, however
// many come before Accept is called; only the first ones keep their
// details.
func TestEveryFailureIsReported(t *testing.T) {
	f := newFailures()
	for i := range maxKeptFailures + 10 {
		f.add(errors.New(strings.Repeat("x", i)))
	}
	for i := range maxKeptFailures + 10 {
		err, ok := f.next()
		if !ok {
			t.Fatalf("failure %d not reported", i)
		}
		if i < maxKeptFailures && err.Error() != strings.Repeat("x", i) || i >= maxKeptFailures && !errors.Is(err, ErrHandshake) {
			t.Fatalf("failure %d reported as %v", i, err)
		}
	}
	if err, ok := f.next(); ok {
		t.Fatalf("reported one more: %v", err)
	}
}
