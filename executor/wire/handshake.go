package wire

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// HandshakeTimeout bounds a whole handshake, so that a peer that connects
// and stays silent, or trickles its bytes, cannot hold a connection (or a
// handshake slot of the Listener) for long. A handshake is two round trips
// and a few hashes: milliseconds, even between data centres.
const HandshakeTimeout = 3 * time.Second

// handshake authenticates nc as self (roleDriver or roleExecutor) and
// returns the encrypted connection. It gives up at the timeout or when ctx
// ends, whichever comes first; on failure the caller closes nc.
func handshake(ctx context.Context, nc net.Conn, secret []byte, self byte, timeout time.Duration) (*Conn, error) {
	deadline := time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := nc.SetDeadline(deadline); err != nil {
		return nil, handshakeError(nc.RemoteAddr(), "setting the deadline: %w", err)
	}
	// A deadline in the past wakes the reads and writes below at once.
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	var keys sessionKeys
	var err error
	if self == roleDriver {
		keys, err = driverHandshake(nc, secret)
	} else {
		keys, err = executorHandshake(nc, secret)
	}
	if !stop() {
		return nil, handshakeError(nc.RemoteAddr(), "gave up: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, err
	}
	if err := nc.SetDeadline(time.Time{}); err != nil {
		return nil, handshakeError(nc.RemoteAddr(), "clearing the deadline: %w", err)
	}
	return newConn(nc, keys, self)
}

// executorHandshake speaks first and proves first; it believes the driver
// only once the driver has proved the secret too.
func executorHandshake(nc net.Conn, secret []byte) (sessionKeys, error) {
	peer := nc.RemoteAddr()
	mine := newHello(roleExecutor)
	if _, err := nc.Write(mine[:]); err != nil {
		return sessionKeys{}, handshakeError(peer, "sending the hello: %w", droppedOr(err))
	}
	var theirs hello
	if _, err := io.ReadFull(nc, theirs[:]); err != nil {
		return sessionKeys{}, handshakeError(peer, "reading the driver's hello: %w", droppedOr(err))
	}
	if err := theirs.check(roleDriver); err != nil {
		return sessionKeys{}, handshakeError(peer, "%w", err)
	}
	keys, err := deriveKeys(secret, mine, &theirs)
	if err != nil {
		return sessionKeys{}, handshakeError(peer, "deriving keys: %w", err)
	}
	t := transcript(mine, &theirs)
	if _, err := nc.Write(finished(keys.executorFinished, t)); err != nil {
		return sessionKeys{}, handshakeError(peer, "sending the proof: %w", resetOr(err))
	}
	var proof [finishedSize]byte
	if _, err := io.ReadFull(nc, proof[:]); err != nil {
		if errors.Is(err, syscall.ECONNRESET) {
			return sessionKeys{}, handshakeError(peer, "waiting for the proof: %w", resetOr(err))
		}
		// The driver hangs up without a word on a wrong proof.
		return sessionKeys{}, handshakeError(peer, "%w: %w", ErrNotAccepted, err)
	}
	if !hmac.Equal(proof[:], finished(keys.driverFinished, t)) {
		return sessionKeys{}, handshakeError(peer, "the driver's proof does not match this secret")
	}
	return keys, nil
}

// errDropped marks an executor's handshake that the driver closed before
// sending its hello, or reset later: as a rule, cut off for now to make
// room for a newer connection, and worth another try.
var errDropped = errors.New("the driver cut the connection off before the handshake was over (too many connections at once from this address?)")

// ErrNotAccepted is wrapped by the error of a Dial whose proof the other end
// did not accept: it holds another secret, as a rule.
var ErrNotAccepted = errors.New("the other end did not accept this side's proof (do both sides hold the same secret?)")

// droppedOr marks err as errDropped if it says the driver closed the
// connection.
func droppedOr(err error) error {
	for _, closed := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(err, closed) {
			return fmt.Errorf("%w: %w", errDropped, err)
		}
	}
	return err
}

// resetOr marks err as errDropped if the driver reset the connection.
func resetOr(err error) error {
	for _, reset := range []error{syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(err, reset) {
			return fmt.Errorf("%w: %w", errDropped, err)
		}
	}
	return err
}

// driverHandshake sends nothing but its hello until the executor has proved
// the secret: an impostor gets 38 bytes of public data and a closed
// connection.
func driverHandshake(nc net.Conn, secret []byte) (sessionKeys, error) {
	peer := nc.RemoteAddr()
	var theirs hello
	if _, err := io.ReadFull(nc, theirs[:]); err != nil {
		return sessionKeys{}, handshakeError(peer, "reading the executor's hello: %w", err)
	}
	if err := theirs.check(roleExecutor); err != nil {
		return sessionKeys{}, handshakeError(peer, "%w", err)
	}
	mine := newHello(roleDriver)
	if _, err := nc.Write(mine[:]); err != nil {
		return sessionKeys{}, handshakeError(peer, "sending the hello: %w", err)
	}
	keys, err := deriveKeys(secret, &theirs, mine)
	if err != nil {
		return sessionKeys{}, handshakeError(peer, "deriving keys: %w", err)
	}
	t := transcript(&theirs, mine)
	var proof [finishedSize]byte
	if _, err := io.ReadFull(nc, proof[:]); err != nil {
		return sessionKeys{}, handshakeError(peer, "reading the executor's proof: %w", err)
	}
	if !hmac.Equal(proof[:], finished(keys.executorFinished, t)) {
		return sessionKeys{}, handshakeError(peer, "the executor's proof does not match this secret")
	}
	if _, err := nc.Write(finished(keys.driverFinished, t)); err != nil {
		return sessionKeys{}, handshakeError(peer, "sending the proof: %w", err)
	}
	return keys, nil
}
