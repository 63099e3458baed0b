package am

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// The RM out of reach is a connection that failed, or was lost, or a
// standby answering where the active RM should; not what an RM raised,
// refused credentials, or the AM's own client closed.
func TestOutOfReach(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("connection lost: %w", io.EOF), true},
		{&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{&ipc.RemoteError{Class: "org.apache.hadoop.ipc.StandbyException"}, true},
		{&ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException"}, false},
		{fmt.Errorf("sasl: %w", ipc.ErrAuthentication), false},
		{net.ErrClosed, false},
	} {
		if got := outOfReach(c.err); got != c.want {
			t.Errorf("outOfReach(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
