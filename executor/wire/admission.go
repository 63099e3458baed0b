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
// HandshakeTimeout, so without bounds anyone who can connect could pile
// them up. A bound that refused newcomers would be worse: whoever filled
// it, from the clients' own address (every local client, and every user of
// a shared gateway host, has the same one), would keep everyone out. So at
// a bound nobody is refused: the oldest handshake in progress gives way to
// the newcomer. A genuine peer finishes its handshake in two round trips;
// to cut it, a flood must open a bound's worth of newer connections within
// them, and even then the peer only connects again (Dial). The bounds are
// large, so that what a flood costs the driver is goroutines and
// descriptors, a few KiB each, not anyone's admission.
const (
	// maxPeerHandshakes is how many handshakes one IP address may have in
	// progress; past it, its oldest gives way.
	maxPeerHandshakes = 1024
	// maxHandshakes bounds the handshakes in progress from all addresses;
	// past it, the oldest of the address holding the most gives way.
	maxHandshakes = 4096
)

// errEvicted ends a handshake whose slot went to a newer connection.
var errEvicted = errors.New("cut off to make room for a newer connection")

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
// ends. At the peer's bound its own oldest handshake gives way; at the
// total bound, the oldest of the peer holding the most (which may be this
// one) does. Either way the newcomer is in.
func (a *admission) admit(peer netip.Addr, cancel context.CancelCauseFunc) *ticket {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch mine := a.peers[peer]; {
	case len(mine) >= a.perPeer:
		a.evict(mine[0], fmt.Errorf("%w: %d handshakes were in progress from %s, the most one address may have", errEvicted, len(mine), peer))
	case a.n >= a.total:
		a.evict(a.oldestOfBusiest(), fmt.Errorf("%w: %d handshakes were in progress, the most the driver runs at once, and this address held the most", errEvicted, a.n))
	}
	a.seq++
	t := &ticket{peer: peer, seq: a.seq, cancel: cancel}
	a.peers[peer] = append(a.peers[peer], t)
	a.n++
	return t
}

// evict ends t's handshake with cause and frees its slot at once, before
// its goroutine has noticed.
func (a *admission) evict(t *ticket, cause error) {
	a.remove(t)
	t.cancel(cause)
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
