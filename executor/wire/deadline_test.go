package wire

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// A client that connects and says nothing (or too little) is cut off at the
// handshake deadline, and delays no one meanwhile.
func TestSilentClientIsCutOff(t *testing.T) {
	const timeout = 300 * time.Millisecond
	for _, sends := range [][]byte{nil, []byte(magic + "\x01E")} {
		l := listenT(t, testSecret, timeout)
		silent := rawDial(t, l.Addr().String())
		silent.Write(sends)
		start := time.Now()

		dialT(t, l.Addr().String(), testSecret)
		if _, err := acceptT(t, l); err != nil {
			t.Fatalf("the legitimate executor behind a silent client: %v", err)
		}
		if waited := time.Since(start); waited >= timeout {
			t.Errorf("the legitimate executor waited %v for the silent client", waited)
		}

		_, err := acceptT(t, l)
		if !errors.Is(err, ErrHandshake) || !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("Accept: %v, want ErrHandshake and a deadline", err)
		}
		if got := readAll(t, silent); len(got) != 0 {
			t.Errorf("the silent client received %d bytes", len(got))
		}
		t.Logf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
}

// silentDriver accepts connections and never answers.
func silentDriver(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		var conns []net.Conn
		defer func() {
			for _, nc := range conns {
				nc.Close()
			}
		}()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, nc)
		}
	}()
	return ln.Addr().String()
}

func TestDialGivesUpWithItsContext(t *testing.T) {
	addr := silentDriver(t)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Dial(ctx, "tcp", addr, testSecret); !errors.Is(err, ErrHandshake) {
		t.Errorf("Dial past its deadline: %v, want ErrHandshake", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := Dial(ctx, "tcp", addr, testSecret)
	if !errors.Is(err, ErrHandshake) || !errors.Is(err, context.Canceled) {
		t.Errorf("Dial cancelled: %v, want ErrHandshake and context.Canceled", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("Dial took %v to notice the cancellation", waited)
	}
}

func TestListenerClose(t *testing.T) {
	l, err := Listen("tcp", "127.0.0.1:0", testSecret)
	if err != nil {
		t.Fatal(err)
	}
	silent := rawDial(t, l.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Accept(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Accept with a cancelled context: %v", err)
	}

	// Close ends the silent client's handshake now, not at its deadline.
	start := time.Now()
	l.Close()
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("Close took %v", waited)
	}
	if got := readAll(t, silent); len(got) != 0 {
		t.Errorf("the silent client received %d bytes", len(got))
	}
	if _, err := l.Accept(context.Background()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
	}
}

// A handshake gives up at its own timeout even when its caller's context
// would wait far longer: a driver that accepts and says nothing does not
// hold an executor, or a client, for as long as its caller is patient.
func TestHandshakeTimeoutHoldsUnderALongerContext(t *testing.T) {
	addr := silentDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	const timeout = 200 * time.Millisecond
	start := time.Now()
	_, err := handshake(ctx, rawDial(t, addr), testSecret, roleExecutor, timeout)
	if took := time.Since(start); !errors.Is(err, ErrHandshake) || !errors.Is(err, os.ErrDeadlineExceeded) || took > 10*timeout {
		t.Errorf("handshake with a %v timeout under a minute's context: %v after %v; want it cut at its timeout", timeout, err, took)
	}

	start = time.Now()
	_, err = Dial(ctx, "tcp", addr, testSecret)
	if took := time.Since(start); !errors.Is(err, ErrHandshake) || took < HandshakeTimeout || took > HandshakeTimeout+2*time.Second {
		t.Errorf("Dial under a minute's context: %v after %v; want it cut at HandshakeTimeout (%v)", err, took, HandshakeTimeout)
	}
}
