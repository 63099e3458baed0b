package wire

import (
	"context"
	"fmt"
	"net"
)

// Dial connects an executor to its driver and authenticates with secret
// (SecretSize bytes). It returns once the driver has proved it holds the
// same secret; an error wrapping ErrHandshake means it did not, or did not
// in time (HandshakeTimeout, or ctx's deadline if sooner).
func Dial(ctx context.Context, network, addr string, secret []byte) (*Conn, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, fmt.Errorf("wire: connecting to the driver: %w", err)
	}
	c, err := handshake(ctx, nc, secret, roleExecutor, HandshakeTimeout)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}
