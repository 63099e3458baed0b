package wire

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"syscall"
	"time"
)

// How long Dial waits before trying again after the driver refused it:
// jittered, so that refused executors do not come back all at once, and
// doubling up to a bound that keeps it prompt once a slot is free.
const (
	firstRedialWait = 20 * time.Millisecond
	maxRedialWait   = 500 * time.Millisecond
)

// Dial connects an executor to its driver and authenticates with secret
// (SecretSize bytes). It returns once the driver has proved it holds the
// same secret; an error wrapping ErrHandshake means it did not, or did not
// in time (HandshakeTimeout, or ctx's deadline if sooner).
//
// A driver that closes the connection before sending its hello, or resets
// it before its proof, is, as a rule, cutting it off for now: a newer
// connection took its place at the bound of handshakes in progress (a
// flood from this host, say). Dial then connects again, waiting a little
// longer each time, until ctx ends. network is "tcp" or "unix" (addr a
// path, of any length).
func Dial(ctx context.Context, network, addr string, secret []byte) (*Conn, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	var d net.Dialer
	wait := firstRedialWait
	for {
		var nc net.Conn
		var err error
		if network == "unix" {
			nc, err = dialUnix(ctx, &d, addr)
		} else {
			nc, err = d.DialContext(ctx, network, addr)
		}
		switch {
		case err == nil:
			var c *Conn
			if c, err = handshake(ctx, nc, secret, roleExecutor, HandshakeTimeout); err == nil {
				return c, nil
			}
			nc.Close()
		case errors.Is(err, syscall.ECONNRESET):
			// Cut off so soon that the reset came before the connect
			// returned.
			err = fmt.Errorf("%w with %s: %w: %w", ErrHandshake, addr, errDropped, err)
		default:
			return nil, fmt.Errorf("wire: connecting to the driver: %w", err)
		}
		if !errors.Is(err, errDropped) {
			return nil, err
		}
		select {
		case <-time.After(wait/2 + rand.N(wait/2)):
		case <-ctx.Done():
			return nil, fmt.Errorf("%w; gave up trying again: %w", err, context.Cause(ctx))
		}
		wait = min(2*wait, maxRedialWait)
	}
}
