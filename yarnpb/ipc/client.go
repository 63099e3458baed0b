package ipc

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// Options configure a Client.
type Options struct {
	// Protocol is the Java protocol name every call declares, e.g.
	// org.apache.hadoop.yarn.api.ApplicationClientProtocolPB.
	Protocol string
	Auth     Auth

	// MaxFrame bounds a response (default DefaultMaxFrame).
	MaxFrame int
	// DialTimeout bounds connecting and authenticating (default 20s).
	DialTimeout time.Duration
	// PingInterval is how long a connection stays silent before a ping
	// (default 1 minute, Hadoop's ipc.ping.interval; negative: never).
	PingInterval time.Duration
	// FailoverRounds is how many times a client with several addresses (RM
	// HA) goes through all of them before giving up (default 3).
	FailoverRounds int
	// FailoverBackoff is the pause between rounds (default 1s).
	FailoverBackoff time.Duration
	// Dialer opens connections (default net.Dialer).
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
}

func (o *Options) withDefaults() Options {
	d := *o
	if d.MaxFrame <= 0 {
		d.MaxFrame = DefaultMaxFrame
	}
	if d.DialTimeout <= 0 {
		d.DialTimeout = 20 * time.Second
	}
	if d.PingInterval == 0 {
		d.PingInterval = time.Minute
	}
	if d.FailoverRounds <= 0 {
		d.FailoverRounds = 3
	}
	if d.FailoverBackoff <= 0 {
		d.FailoverBackoff = time.Second
	}
	if d.Dialer == nil {
		d.Dialer = (&net.Dialer{KeepAlive: 30 * time.Second}).DialContext
	}
	return d
}

// Client calls one protocol on one server, or on the first answering of
// several (ResourceManager HA). It is safe for concurrent use: calls share
// one connection, reconnecting when it breaks.
type Client struct {
	addrs    []string
	opts     Options
	clientID []byte

	mu      sync.Mutex
	current int // index in addrs of the server in use
	conn    *conn
	closed  bool
}

// NewClient returns a client for the servers at addrs (host:port), tried in
// order. It connects on the first call.
func NewClient(addrs []string, opts Options) (*Client, error) {
	if len(addrs) == 0 {
		return nil, errors.New("ipc: no server address")
	}
	if opts.Protocol == "" {
		return nil, errors.New("ipc: no protocol name")
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	// Hadoop's client ids are UUIDs.
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	return &Client{addrs: append([]string(nil), addrs...), opts: opts.withDefaults(), clientID: id}, nil
}

// Call invokes method with req and decodes the response into resp. A
// standby server or one that cannot be reached makes the client fail over
// to the next address, if it has several. A call whose connection broke
// after it was sent is not repeated: the error wraps ErrConnectionLost.
func (c *Client) Call(ctx context.Context, method string, req, resp proto.Message) error {
	attempts := c.opts.FailoverRounds * len(c.addrs)
	var last error
	for attempt := 0; attempt < attempts; attempt++ {
		// Pause between rounds of failover, not before reconnecting to a
		// server whose connection merely went stale.
		if attempt > 0 && attempt%len(c.addrs) == 0 && !errors.Is(last, errNotSent) {
			if err := sleep(ctx, c.opts.FailoverBackoff); err != nil {
				return fmt.Errorf("%w (last error: %w)", err, last)
			}
		}
		cn, err := c.connection(ctx)
		if err != nil {
			if ctx.Err() != nil || !worthRetrying(err) {
				return err
			}
			last = err
			c.failover(nil)
			continue
		}
		err = cn.call(ctx, method, req, resp)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errNotSent):
			// The connection was found broken before the request left:
			// try again on a fresh one (which may be another server).
			last = err
			c.drop(cn)
			if len(c.addrs) > 1 {
				c.failover(cn)
			}
		case errors.Is(err, ErrStandby) && len(c.addrs) > 1:
			last = err
			c.failover(cn)
		default:
			return err
		}
	}
	return fmt.Errorf("ipc: %s failed on %v: %w", method, c.addrs, last)
}

// worthRetrying tells a connection failure another attempt (or another
// RM) may cure, a network one, from one it will not: refused credentials,
// a server's exception, a closed client.
func worthRetrying(err error) bool {
	var re *RemoteError
	switch {
	case errors.Is(err, net.ErrClosed), errors.Is(err, ErrAuthentication):
		return false
	case errors.As(err, &re):
		return errors.Is(err, ErrStandby)
	}
	return true
}

// connection returns the live connection, dialing one if needed.
func (c *Client) connection(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, net.ErrClosed
	}
	if c.conn != nil && c.conn.healthy() {
		return c.conn, nil
	}
	cn, err := dial(ctx, c.addrs[c.current], &c.opts, c.clientID)
	if err != nil {
		return nil, err
	}
	c.conn = cn
	return cn, nil
}

// drop forgets cn if it is still the client's connection.
func (c *Client) drop(cn *conn) {
	c.mu.Lock()
	if c.conn == cn {
		c.conn = nil
	}
	c.mu.Unlock()
	cn.close()
}

// failover moves to the next address, unless another call already moved
// away from the one cn (nil: the current one) belongs to.
func (c *Client) failover(cn *conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cn != nil && c.conn != cn {
		return
	}
	if c.conn != nil {
		c.conn.close()
		c.conn = nil
	}
	c.current = (c.current + 1) % len(c.addrs)
}

// SetTokens replaces the tokens new connections authenticate with: a
// rolled AMRMToken, say. The open connection, already authenticated, stays.
func (c *Client) SetTokens(tokens []*hadoopcommon.TokenProto) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opts.Auth.Tokens = append([]*hadoopcommon.TokenProto(nil), tokens...)
}

// Addr is the address of the server the client talks to now.
func (c *Client) Addr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addrs[c.current]
}

// Close closes the connection; later calls fail.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.conn != nil {
		c.conn.close()
		c.conn = nil
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
