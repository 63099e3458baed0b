package executor

import (
	"net"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// pickPort answers a driver's PickPort: a TCP port free on this host now,
// for the gang's rank 0 to listen on (MASTER_PORT). It is bound on every
// interface and closed at once, so the task can take it; the kernel hands
// out ephemeral ports in turn, so another process taking it in the
// moment between is unlikely, not impossible (torchrun's own default
// port has the same caveat, and a gang whose rank 0 cannot bind fails and
// runs again whole).
func pickPort(gang int64) *wire.PortPicked {
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		return &wire.PortPicked{Gang: gang, Error: err.Error()}
	}
	defer ln.Close()
	return &wire.PortPicked{Gang: gang, Port: int32(ln.Addr().(*net.TCPAddr).Port)}
}
