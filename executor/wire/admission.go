package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
)

// Bounds on the handshakes a Listener runs at once. A handshake holds a
// goroutine and a file descriptor until it ends, at the latest at
// HandshakeTimeout; without bounds, anyone who can connect could pile them
// up, and with one global bound alone they could fill it and keep every
// executor out.
const (
	// maxPeerHandshakes is how many handshakes one IP address may have in
	// progress; its connections past that are closed at once. It is well
	// above what the executors of one node need when they all register
	// together, since a handshake lasts about two round trips.
	maxPeerHandshakes = 16
	// maxHandshakes bounds the handshakes in progress from all addresses.
	// At the bound the address holding the most gives way (see admit), so
	// a flood from many addresses cannot keep out an executor from another.
	maxHandshakes = 256
)

// errEvicted ends a handshake whose slot went to a connection from an
// address holding fewer.
var errEvicted = errors.New("cut off: the driver was at its bound of handshakes in progress, and this address held the most")

// admission counts the handshakes in progress, per peer address and in all.
type admission struct {
	perPeer, total int

	mu    sync.Mutex
	n     int
	seq   uint64                   // tickets issued, to tell the oldest
	peers map[netip.Addr][]*ticket // each peer's handshakes, oldest first
}

// ticket is one admitted handshake.
type ticket struct {
	peer   netip.Addr
	seq    uint64
	cancel context.CancelCauseFunc // ends the handshake, for an eviction
}

func newAdmission(perPeer, total int) *admission {
	return &admission{perPeer: perPeer, total: total, peers: map[netip.Addr][]*ticket{}}
}

// peerOf is the address a connection's handshakes count against: its IP
// (IPv4-mapped IPv6 as IPv4), without the port, which a peer picks freely.
func peerOf(a net.Addr) netip.Addr {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.AddrPort().Addr().Unmap()
	}
	return netip.Addr{} // other networks: one peer for all
}

// admit lets a connection from peer start its handshake, which cancel
// ends, or says why not. A peer at its own bound is refused. At the total
// bound, the peers holding the most handshakes give way, if they hold more
// than the newcomer's: their oldest is ended to make room. Slots thus go
// to the addresses holding fewest, so that filling them from many
// addresses does not keep out an executor from another: it takes the
// slot of an older connection, and the flood must open a slot's worth of
// newer ones within its handshake, milliseconds, to cut it in turn.
func (a *admission) admit(peer netip.Addr, cancel context.CancelCauseFunc) (*ticket, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	mine := len(a.peers[peer])
	if mine >= a.perPeer {
		return nil, fmt.Errorf("refused: %d handshakes already in progress from %s, the most one address may have", mine, peer)
	}
	if a.n >= a.total {
		victim := a.oldestOfBusiest()
		if len(a.peers[victim.peer]) <= mine {
			return nil, fmt.Errorf("refused: %d handshakes already in progress, the most the driver runs at once", a.n)
		}
		a.remove(victim)
		victim.cancel(errEvicted)
	}
	a.seq++
	t := &ticket{peer: peer, seq: a.seq, cancel: cancel}
	a.peers[peer] = append(a.peers[peer], t)
	a.n++
	return t, nil
}

// oldestOfBusiest is the oldest handshake of the peers holding the most
// (there is one: it is called at the total bound).
func (a *admission) oldestOfBusiest() *ticket {
	var oldest *ticket
	most := 0
	for _, ts := range a.peers {
		if len(ts) > most || len(ts) == most && ts[0].seq < oldest.seq {
			oldest, most = ts[0], len(ts)
		}
	}
	return oldest
}

// done ends t's hold on its slot; a ticket already evicted holds none.
func (a *admission) done(t *ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.remove(t)
}

func (a *admission) remove(t *ticket) {
	ts := a.peers[t.peer]
	for i, x := range ts {
		if x == t {
			ts = append(ts[:i], ts[i+1:]...)
			a.n--
			break
		}
	}
	if len(ts) == 0 {
		delete(a.peers, t.peer)
	} else {
		a.peers[t.peer] = ts
	}
}
