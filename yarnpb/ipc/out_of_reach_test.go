package ipc

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
)

// A server out of reach is a connection that failed, or was lost, or a
// standby answering where the active server should; not what a server
// raised, refused credentials, or the caller's own client closed.
func TestOutOfReach(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("connection lost: %w", io.EOF), true},
		{&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{&RemoteError{Class: "org.apache.hadoop.ipc.StandbyException"}, true},
		{&RemoteError{Class: "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException"}, false},
		{fmt.Errorf("sasl: %w", ErrAuthentication), false},
		{net.ErrClosed, false},
		{nil, false},
	} {
		if got := OutOfReach(c.err); got != c.want {
			t.Errorf("OutOfReach(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
