package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
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

// readReset reads what the peer sends until it ends the connection, and
// says whether it reset it (a cut off) rather than closed it in order.
func readReset(t testing.TB, nc net.Conn) (got []byte, reset bool) {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	var buf bytes.Buffer
	_, err := io.Copy(&buf, nc)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading until the peer ended the connection: %v", err)
	}
	return buf.Bytes(), err != nil
}

// stillWaiting fails unless nc's handshake is still in progress: nothing
// comes, and the connection stays open.
func stillWaiting(t testing.TB, nc net.Conn, what string) {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := nc.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("%s: read %d, %v; want it still waiting", what, n, err)
	}
}

// At an address's bound of handshakes in progress, its oldest gives way to
// the newcomer: the newcomer is served, the oldest is reset without a byte
// and reported, and the rest wait on. Up to the bound, nobody gives way.
func TestOldestHandshakeGivesWayAtThePeerBound(t *testing.T) {
	const bound = 3
	l := listenLimitsT(t, limits{timeout: HandshakeTimeout, perPeer: bound, total: maxHandshakes})
	addr := l.Addr().String()
	var silent []net.Conn
	for range bound {
		silent = append(silent, rawDialFrom(t, "127.0.0.2", addr))
	}
	stillWaiting(t, silent[0], "the oldest, at the bound")

	if _, err := handshakeFrom(t, "127.0.0.2", addr); err != nil {
		t.Fatalf("a newcomer past the bound: %v", err)
	}
	got, reset := readReset(t, silent[0])
	if len(got) != 0 || !reset {
		t.Errorf("the oldest, cut off: received %d bytes, reset %v; want nothing, and a reset", len(got), reset)
	}
	stillWaiting(t, silent[1], "the second oldest")
	var conns, evicted int
	for range 2 {
		c, err := acceptT(t, l)
		switch {
		case c != nil:
			conns++
		case errors.Is(err, ErrHandshake) && errors.Is(err, errEvicted) && strings.Contains(err.Error(), "from 127.0.0.2, the most one address may have"):
			evicted++
			t.Log(err)
		default:
			t.Errorf("Accept: %v", err)
		}
	}
	if conns != 1 || evicted != 1 {
		t.Errorf("accepted %d and cut off %d; want the newcomer in and the oldest cut off", conns, evicted)
	}
}

// At the total bound, the address holding the most handshakes gives up its
// oldest to a newcomer, from another address or from itself.
func TestBusiestPeerGivesWay(t *testing.T) {
	l := listenLimitsT(t, limits{timeout: HandshakeTimeout, perPeer: 3, total: 4})
	addr := l.Addr().String()
	oldest := rawDialFrom(t, "127.0.0.2", addr)
	second := rawDialFrom(t, "127.0.0.2", addr)
	rawDialFrom(t, "127.0.0.3", addr)
	rawDialFrom(t, "127.0.0.3", addr)
	rawDialFrom(t, "127.0.0.3", addr) // its own bound: 127.0.0.2's oldest went

	if got, reset := readReset(t, oldest); len(got) != 0 || !reset {
		t.Errorf("127.0.0.2's oldest: received %d bytes, reset %v; want it cut off at the total bound", len(got), reset)
	}
	// 127.0.0.3 now holds the most: a newcomer from 127.0.0.1 takes the
	// oldest of its place, and 127.0.0.2's second waits on.
	if _, err := handshakeFrom(t, "127.0.0.1", addr); err != nil {
		t.Fatalf("a newcomer from an address holding none: %v", err)
	}
	stillWaiting(t, second, "127.0.0.2's second")
	var conns int
	var evictedFrom []string
	for range 3 {
		c, err := acceptT(t, l)
		switch {
		case c != nil:
			conns++
		case errors.Is(err, ErrHandshake) && errors.Is(err, errEvicted) && strings.Contains(err.Error(), "the most the driver runs at once"):
			evictedFrom = append(evictedFrom, strings.Fields(strings.SplitAfter(err.Error(), " with ")[1])[0])
			t.Log(err)
		default:
			t.Errorf("Accept: %v", err)
		}
	}
	slices.Sort(evictedFrom)
	if conns != 1 || len(evictedFrom) != 2 || !strings.HasPrefix(evictedFrom[0], "127.0.0.2:") || !strings.HasPrefix(evictedFrom[1], "127.0.0.3:") {
		t.Errorf("accepted %d and cut off %v; want the newcomer in, and the oldest of 127.0.0.2 then of 127.0.0.3 cut off", conns, evictedFrom)
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

// An executor cut off by its driver, to make room for a newer connection,
// connects again until it gets in, whether it was cut before the driver's
// hello or while it waited for the driver's proof.
func TestDialTriesAgainWhenCutOff(t *testing.T) {
	for _, cutAfterHello := range []bool{false, true} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		served := make(chan error, 1)
		go func() {
			// The first two connections are cut off, the third served.
			for i := 0; ; i++ {
				nc, err := ln.Accept()
				if err != nil {
					served <- err
					return
				}
				if i == 2 {
					_, err := driverHandshake(nc, testSecret)
					served <- err
					return
				}
				var h hello
				io.ReadFull(nc, h[:])
				if cutAfterHello {
					mine := newHello(roleDriver)
					nc.Write(mine[:])
					io.ReadFull(nc, make([]byte, finishedSize))
				}
				resetOnClose(nc)
				nc.Close()
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, err := Dial(ctx, "tcp", ln.Addr().String(), testSecret)
		cancel()
		if err != nil {
			t.Fatalf("cut off after the hello %v: Dial: %v; want it in at the third try", cutAfterHello, err)
		}
		c.Close()
		if err := <-served; err != nil {
			t.Fatalf("the third connection's handshake: %v", err)
		}
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

// Past an address's bound, a flood that opens a connection again as soon
// as one is cut churns through the slots, each newcomer cutting off the
// oldest; a genuine executor from the same address still gets in, within a
// second each time, connecting again if it is cut off itself.
func TestReopeningFloodPastTheBoundHoldsNoOneOut(t *testing.T) {
	const bound, flood = 256, 400
	l := listenLimitsT(t, limits{timeout: HandshakeTimeout, perPeer: bound, total: maxHandshakes})
	addr := l.Addr().String()
	go func() { // Accept's reports, drained
		for {
			if _, err := l.Accept(context.Background()); errors.Is(err, net.ErrClosed) {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for range flood {
		wg.Go(func() {
			for ctx.Err() == nil {
				var d net.Dialer
				nc, err := d.DialContext(ctx, "tcp", addr)
				if err != nil {
					continue
				}
				stop := context.AfterFunc(ctx, func() { nc.Close() })
				io.Copy(io.Discard, nc)
				stop()
				nc.Close()
			}
		})
	}
	var tries int
	for ; ctx.Err() == nil; tries++ {
		start := time.Now()
		dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := Dial(dctx, "tcp", addr, testSecret)
		dcancel()
		if err != nil {
			t.Fatalf("Dial %d behind the flood: %v", tries, err)
		}
		c.Close()
		if took := time.Since(start); took >= time.Second {
			t.Errorf("Dial %d behind the flood took %v, want under 1s", tries, took)
		}
	}
	t.Logf("%d handshakes behind %d connections churning through %d slots", tries, flood, bound)
}
