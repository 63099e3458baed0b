package wire

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestWrongSecretFailsBothSides(t *testing.T) {
	for _, tc := range []struct{ name, driver, executor string }{
		{"executor's secret wrong", string(testSecret), string(wrongSecret)},
		{"driver's secret wrong", string(wrongSecret), string(testSecret)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := listenT(t, []byte(tc.driver), HandshakeTimeout)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, dialErr := Dial(ctx, "tcp", l.Addr().String(), []byte(tc.executor))
			_, acceptErr := acceptT(t, l)
			if c != nil || !errors.Is(dialErr, ErrHandshake) {
				t.Errorf("Dial: %v, want ErrHandshake", dialErr)
			}
			if !errors.Is(acceptErr, ErrHandshake) {
				t.Errorf("Accept: %v, want ErrHandshake", acceptErr)
			}
			// The driver checks the executor's proof first and refuses
			// it; Dial says so, rather than that it was cut off.
			if !errors.Is(dialErr, ErrNotAccepted) {
				t.Errorf("Dial: %v, want ErrNotAccepted", dialErr)
			}
			assertNoSecret(t, dialErr)
			assertNoSecret(t, acceptErr)
			t.Logf("executor: %v\ndriver:   %v", dialErr, acceptErr)
		})
	}
}

// The driver hands task data (launchMarker) to every executor that
// registers. Peers without the secret, however they try, must neither
// register nor receive anything but the driver's hello; and the legitimate
// executor's task data must not cross the network in the clear.
func TestUnauthenticatedPeersGetNothing(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	var (
		mu         sync.Mutex
		registered []string
		failures   []error
	)
	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		for {
			c, err := l.Accept(context.Background())
			if errors.Is(err, ErrHandshake) {
				mu.Lock()
				failures = append(failures, err)
				mu.Unlock()
				continue
			}
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				m, err := c.Recv()
				if err != nil || m.GetRegister() == nil {
					return
				}
				mu.Lock()
				registered = append(registered, m.GetRegister().GetExecutorId())
				mu.Unlock()
				c.Send(&Envelope{Message: &Envelope_Registered{Registered: &Registered{}}})
				c.Send(launchBatch(2))
				c.Recv() // until the executor hangs up
			}()
		}
	}()

	// The legitimate executor, through a proxy that records the bytes.
	rec := newRecorder(t, l.Addr().String())
	good := dialT(t, rec.addr, testSecret)
	if err := good.Send(register("good")); err != nil {
		t.Fatal(err)
	}
	if m, err := good.Recv(); err != nil || m.GetRegistered() == nil {
		t.Fatalf("legitimate executor not registered: %v, %v", m, err)
	}
	m, err := good.Recv()
	if err != nil || !slices.Contains(m.GetLaunchBatch().GetLaunches()[0].GetArgv(), launchMarker) {
		t.Fatalf("legitimate executor got no tasks: %v, %v", m, err)
	}
	good.Close()
	if bytes.Contains(rec.sentToExecutors(), []byte(launchMarker)) {
		t.Fatal("task data crossed the network in the clear")
	}
	recording := rec.sentToDriver()

	plainRegister, _ := marshalFrame(register("plain"))
	impostors := []struct {
		name string
		// run plays the impostor and returns what it received.
		run func(t *testing.T) []byte
		// wantBytes is how much the driver may send it: its hello or nothing.
		wantBytes int
	}{
		{"wrong secret", func(t *testing.T) []byte {
			rec := newRecorder(t, l.Addr().String())
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := Dial(ctx, "tcp", rec.addr, wrongSecret)
			if !errors.Is(err, ErrHandshake) {
				t.Fatalf("Dial with the wrong secret: %v, %v", c, err)
			}
			assertNoSecret(t, err)
			// Complete: the proxy recorded the driver's bytes before passing
			// on the close that failed Dial.
			return rec.sentToExecutors()
		}, helloSize},
		{"no handshake, a plaintext Register", func(t *testing.T) []byte {
			nc := rawDial(t, l.Addr().String())
			nc.Write(plainRegister)
			return readAll(t, nc)
		}, 0},
		{"a driver's hello", func(t *testing.T) []byte {
			nc := rawDial(t, l.Addr().String())
			nc.Write(newHello(roleDriver)[:])
			return readAll(t, nc)
		}, 0},
		{"the legitimate executor's bytes replayed", func(t *testing.T) []byte {
			nc := rawDial(t, l.Addr().String())
			nc.Write(recording)
			return readAll(t, nc)
		}, helloSize},
		{"a garbled proof", func(t *testing.T) []byte {
			nc := rawDial(t, l.Addr().String())
			nc.Write(newHello(roleExecutor)[:])
			proof := make([]byte, finishedSize)
			rand.Read(proof)
			nc.Write(proof)
			return readAll(t, nc)
		}, helloSize},
		{"wrong secret, pressing on with a sealed Register", func(t *testing.T) []byte {
			nc := rawDial(t, l.Addr().String())
			return pressOn(t, nc, wrongSecret, register("impostor"))
		}, helloSize},
	}
	for _, imp := range impostors {
		t.Run(imp.name, func(t *testing.T) {
			got := imp.run(t)
			if bytes.Contains(got, []byte(launchMarker)) {
				t.Fatal("the impostor received task data")
			}
			if len(got) != imp.wantBytes {
				t.Fatalf("the driver sent the impostor %d bytes, want %d", len(got), imp.wantBytes)
			}
		})
	}

	// Each impostor saw its connection closed just before the driver
	// reported the failure: wait for the reports.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(failures)
		mu.Unlock()
		if n >= len(impostors) {
			break
		}
	}
	l.Close()
	<-serverDone
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(registered, []string{"good"}) {
		t.Errorf("registered %q, want only the legitimate executor", registered)
	}
	if len(failures) != len(impostors) {
		t.Errorf("%d handshake failures reported, want one per impostor (%d): %v", len(failures), len(impostors), failures)
	}
	for _, err := range failures {
		assertNoSecret(t, err)
	}
}

// pressOn plays an executor that ignores the handshake's outcome: it proves
// with secret, does not wait for the driver's proof, sends m sealed with the
// keys its secret gives, and returns everything the driver sent.
func pressOn(t *testing.T, nc net.Conn, secret []byte, m *Envelope) []byte {
	mine := newHello(roleExecutor)
	nc.Write(mine[:])
	var theirs hello
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(nc, theirs[:]); err != nil {
		t.Fatal(err)
	}
	keys, err := deriveKeys(secret, mine, &theirs)
	if err != nil {
		t.Fatal(err)
	}
	nc.Write(finished(keys.executorFinished, transcript(mine, &theirs)))
	c, err := newConn(nc, keys, roleExecutor)
	if err != nil {
		t.Fatal(err)
	}
	nc.Write(sealFrame(t, c, m))
	return append(theirs[:], readAll(t, nc)...)
}

func TestBadSecretLengthsAreRefused(t *testing.T) {
	for _, s := range [][]byte{nil, testSecret[:31], append(slices.Clone(testSecret), 'x')} {
		if _, err := Listen("tcp", "127.0.0.1:0", s); err == nil {
			t.Errorf("Listen accepted a %d-byte secret", len(s))
		} else {
			assertNoSecret(t, err)
		}
		if _, err := Dial(context.Background(), "tcp", "127.0.0.1:1", s); err == nil {
			t.Errorf("Dial accepted a %d-byte secret", len(s))
		} else {
			assertNoSecret(t, err)
		}
	}
}

// The Listener works from its own copy: the caller may wipe its secret.
func TestListenerKeepsItsOwnSecret(t *testing.T) {
	secret := NewSecret()
	l := listenT(t, secret, HandshakeTimeout)
	key := slices.Clone(secret)
	clear(secret)
	dialT(t, l.Addr().String(), key)
	if _, err := acceptT(t, l); err != nil {
		t.Fatal(err)
	}
}
