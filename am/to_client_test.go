package am

import (
	"errors"
	"os"
	"testing"
	"time"
)

// A session client that takes nothing sent to it is hung up on at the
// timeout, so that the goroutine serving it ends.
func TestClientThatDoesNotReadIsHungUpOn(t *testing.T) {
	conn, peer := connPair(t)
	const timeout = 300 * time.Millisecond
	sent := make(chan error, 1)
	start := time.Now()
	go func() { sent <- toClient(conn, credentialsMessage(make([]byte, 12<<20)), timeout) }()
	select {
	case err := <-sent:
		if err == nil || time.Since(start) < timeout {
			t.Fatalf("toClient: %v after %v; want it to fail at %v", err, time.Since(start), timeout)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("toClient still waits on a client that does not read")
	}
	peer.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, err := peer.Recv(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the client's connection is still open")
			}
			break
		}
	}
}
