package wire

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deepSocket is a socket path in a fresh directory, longer than a Unix
// socket address can hold.
func deepSocket(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "client.sock")
}

// A Unix socket as deep as a state directory may put it is listened on and
// dialled by its path, and goes with the Listener.
func TestUnixSocketOfAnyDepth(t *testing.T) {
	path := deepSocket(t)
	if len(path) <= maxSunPath {
		t.Fatalf("%s is short enough for a socket address: the test shows nothing", path)
	}
	l, err := Listen("unix", path, testSecret, OnlyUID(os.Geteuid()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, "unix", path, testSecret)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close()
	if d, err := acceptT(t, l); err != nil {
		t.Fatalf("Accept: %v", err)
	} else {
		d.Send(&Envelope{Message: &Envelope_Heartbeat{Heartbeat: &Heartbeat{UnixNanos: 7}}})
		if m, err := c.Recv(); err != nil || m.GetHeartbeat().GetUnixNanos() != 7 {
			t.Fatalf("Recv over the socket: %v, %v", m, err)
		}
	}
	l.Close()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket file after Close: %v; want it gone", err)
	}
}

// OnlyUID keeps out a peer the kernel names as another user before a byte
// is read or written, even one that sends a valid hello; the owner's
// peers come in.
func TestOnlyUIDRefusesAnotherUserBeforeTheHandshake(t *testing.T) {
	path := deepSocket(t)
	other := os.Geteuid() + 1
	l, err := Listen("unix", path, testSecret, OnlyUID(other))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	short, release, err := shortUnixPath(path)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := net.Dial("unix", short)
	release()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	h := newHello(roleExecutor)
	nc.Write(h[:])
	if got := readAll(t, nc); len(got) != 0 {
		t.Errorf("the other user's process received %d bytes; want none, not even a hello", len(got))
	}
	_, err = acceptT(t, l)
	want := "runs as uid " + strconv.Itoa(os.Geteuid()) + "; only uid " + strconv.Itoa(other) + " may connect"
	if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "a local process") {
		t.Fatalf("Accept: %v; want a refusal saying %q", err, want)
	}
	t.Log(err)

	// Over TCP there is no peer's uid to check: refused too.
	tl, err := Listen("tcp", "127.0.0.1:0", testSecret, OnlyUID(os.Geteuid()))
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	if got := readAll(t, rawDial(t, tl.Addr().String())); len(got) != 0 {
		t.Errorf("a TCP peer of a Listener for one uid received %d bytes", len(got))
	}
	if _, err := acceptT(t, tl); !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "over a Unix socket") {
		t.Fatalf("Accept of a TCP peer: %v", err)
	}
}
