package ipc

import (
	"errors"
	"net"
)

// OutOfReach says whether err, from a call, is the server out of reach (no
// connection, one lost in flight, a standby where the active server should
// be) rather than its answer (an exception it raised), refused credentials
// or a closed client. A server restarting or failing over is out of reach
// for seconds to minutes, longer than a Client's own few tries: a caller
// that can wait tries again (Hadoop's clients do for
// yarn.resourcemanager.connect.max-wait.ms).
func OutOfReach(err error) bool {
	var remote *RemoteError
	switch {
	case err == nil:
		return false
	case errors.Is(err, ErrStandby):
		return true
	case errors.As(err, &remote), errors.Is(err, ErrAuthentication), errors.Is(err, net.ErrClosed):
		return false
	}
	return true
}
