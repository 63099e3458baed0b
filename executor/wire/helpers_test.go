package wire

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
)

// Printable secrets, so that a leak into an error shows up in any form.
var (
	testSecret  = []byte("spindle-test-secret-0123456789ab")
	wrongSecret = []byte("spindle-WRONG-secret-0123456789a")
)

// listenT starts a Listener on loopback that the test closes.
func listenT(t testing.TB, secret []byte, timeout time.Duration) *Listener {
	t.Helper()
	l, err := listen("tcp", "127.0.0.1:0", secret, limits{timeout: timeout, perPeer: maxPeerHandshakes, total: maxHandshakes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func dialT(t testing.TB, addr string, secret []byte) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, "tcp", addr, secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// acceptT returns the outcome of the Listener's next handshake.
func acceptT(t testing.TB, l *Listener) (*Conn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := l.Accept(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("no connection came to Accept")
	}
	if c != nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// connect returns both ends of an authenticated connection over loopback.
func connect(t testing.TB) (driver, executor *Conn) {
	t.Helper()
	l := listenT(t, testSecret, HandshakeTimeout)
	executor = dialT(t, l.Addr().String(), testSecret)
	driver, err := acceptT(t, l)
	if err != nil {
		t.Fatal(err)
	}
	return driver, executor
}

// rawDial opens a plain TCP connection, for playing a misbehaving peer.
func rawDial(t testing.TB, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// rawExecutor completes the executor's half of a handshake by hand and
// returns the connection with its keys, so a test can write frames the Conn
// would never write.
func rawExecutor(t testing.TB, addr string) (net.Conn, *Conn) {
	t.Helper()
	nc := rawDial(t, addr)
	c, err := handshake(context.Background(), nc, testSecret, roleExecutor, HandshakeTimeout)
	if err != nil {
		t.Fatal(err)
	}
	return nc, c
}

// sealFrame returns m as the executor c would send it next.
func sealFrame(t testing.TB, c *Conn, m *Envelope) []byte {
	t.Helper()
	frame, err := marshalFrame(m)
	if err != nil {
		t.Fatal(err)
	}
	if frame, err = c.send.seal(frame); err != nil {
		t.Fatal(err)
	}
	return frame
}

func marshalFrame(m *Envelope) ([]byte, error) {
	b, err := proto.Marshal(m)
	return append([]byte{0, 0, 0, 0}, b...), err
}

// readAll reads what the peer sends until it closes (or resets) the
// connection.
func readAll(t testing.TB, nc net.Conn) []byte {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	var got bytes.Buffer
	_, err := io.Copy(&got, nc)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading until the peer closed: %v", err)
	}
	return got.Bytes()
}

// recorder is a loopback proxy that keeps every byte it forwards, to show
// what a peer (or an eavesdropper) actually receives.
type recorder struct {
	addr     string
	mu       sync.Mutex
	toDriver bytes.Buffer
	toExec   bytes.Buffer
}

func newRecorder(t testing.TB, target string) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			wg.Add(2)
			go r.pipe(&wg, server, client, &r.toDriver)
			go r.pipe(&wg, client, server, &r.toExec)
		}
	}()
	return r
}

func (r *recorder) pipe(wg *sync.WaitGroup, dst, src net.Conn, rec *bytes.Buffer) {
	defer wg.Done()
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			r.mu.Lock()
			rec.Write(buf[:n])
			r.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (r *recorder) sentToExecutors() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.toExec.Bytes())
}

func (r *recorder) sentToDriver() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.toDriver.Bytes())
}

// assertNoSecret fails if err's text carries either test secret in any
// common rendering.
func assertNoSecret(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	text := err.Error()
	for _, s := range [][]byte{testSecret, wrongSecret} {
		for _, form := range []string{
			string(s), hex.EncodeToString(s), strings.ToUpper(hex.EncodeToString(s)),
			base64.StdEncoding.EncodeToString(s), base64.RawURLEncoding.EncodeToString(s),
			fmt.Sprint(s), fmt.Sprintf("%q", s), string(s[:12]),
		} {
			if strings.Contains(text, form) {
				t.Fatalf("error carries the secret: %q", text)
			}
		}
	}
}
