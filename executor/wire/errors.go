package wire

import (
	"errors"
	"fmt"
	"net"
)

var (
	// ErrHandshake is wrapped by every error that ends a connection before
	// it was authenticated: a wrong secret on either side, a peer that does
	// not speak this protocol, or one that stayed silent past the deadline.
	// A Listener reports these from Accept and keeps accepting.
	ErrHandshake = errors.New("wire: handshake failed")

	// ErrBadFrame is wrapped by every error about a frame received after the
	// handshake: too long, failed authentication (tampered, replayed,
	// reordered or reflected), or not an Envelope. The connection is closed.
	ErrBadFrame = errors.New("wire: bad frame")
)

// handshakeError names the peer and what went wrong. Callers pass only
// public facts (addresses, lengths, I/O errors): never key material.
func handshakeError(peer net.Addr, format string, args ...any) error {
	return fmt.Errorf("%w with %s: %w", ErrHandshake, peerName(peer), fmt.Errorf(format, args...))
}

// peerName names a connection's peer in messages: its address, or, for a
// Unix socket's, which has none, what it is.
func peerName(peer net.Addr) string {
	if peer == nil || peer.String() == "" || peer.String() == "@" {
		return "a local process"
	}
	return peer.String()
}

func badFrame(format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrBadFrame, fmt.Errorf(format, args...))
}
