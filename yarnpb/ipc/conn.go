package ipc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// ErrConnectionLost wraps the cause when a connection broke while a call
// waited for its response: the server may or may not have carried it out.
var ErrConnectionLost = errors.New("connection lost")

// errNotSent marks failures that happened before a request left: the call
// can be retried on a fresh connection without risk of running twice.
var errNotSent = errors.New("request not sent")

// preamble opens every connection.
func preamble(sasl bool) []byte {
	auth := byte(0)
	if sasl {
		auth = 0xDF // -33, SASL's call id, as a byte
	}
	return []byte{'h', 'r', 'p', 'c', 9, 0, auth}
}

// response is what the reader hands a waiting call: the bytes after the
// response header, or the error.
type response struct {
	body []byte
	err  error
}

// conn is one authenticated connection, shared by concurrent calls.
type conn struct {
	nc       net.Conn
	addr     string
	opts     *Options
	clientID []byte

	wmu sync.Mutex // one frame at a time
	w   io.Writer  // nc, or the SASL-wrapping writer

	mu      sync.Mutex
	pending map[int32]chan response
	err     error // why the connection is unusable; nil while healthy
	nextID  int32

	lastWrite atomic.Int64 // unix nanos
	done      chan struct{}
}

// dial opens, authenticates and introduces a connection to addr.
func dial(ctx context.Context, addr string, opts *Options, clientID []byte) (*conn, error) {
	dctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	nc, err := opts.Dialer(dctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	// The handshake gets the dial's deadline: a server that stalls in SASL
	// must not hang the caller.
	if dl, ok := dctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	c := &conn{nc: nc, addr: addr, opts: opts, clientID: clientID, pending: map[int32]chan response{}, done: make(chan struct{})}
	r, err := c.handshake()
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	nc.SetDeadline(time.Time{})
	c.lastWrite.Store(time.Now().UnixNano())
	go c.readLoop(r)
	if opts.PingInterval > 0 {
		go c.pingLoop()
	}
	return c, nil
}

// handshake sends the preamble, authenticates and sends the connection
// context, returning the reader responses come from.
func (c *conn) handshake() (io.Reader, error) {
	auth := &c.opts.Auth
	useSASL := auth.usesSASL()
	br := bufio.NewReader(c.nc)
	if _, err := c.nc.Write(preamble(useSASL)); err != nil {
		return nil, err
	}
	method := MethodSimple
	var r io.Reader = br
	c.w = c.nc
	if useSASL {
		n, err := negotiate(struct {
			io.Reader
			io.Writer
		}{br, c.nc}, auth, c.addr, c.nc.RemoteAddr(), c.opts.MaxFrame)
		if err != nil {
			return nil, err
		}
		method = n.method
		if n.layer != nil {
			r = &wrappedReader{r: br, layer: n.layer, maxFrame: c.opts.MaxFrame}
			c.w = &wrappedWriter{w: c.nc, layer: n.layer}
		}
	}
	// A token names its user; SIMPLE and KERBEROS say who acts.
	user := &hadoopcommon.UserInformationProto{}
	if method != MethodToken {
		user.EffectiveUser = proto.String(auth.User)
	}
	ctxMsg := &hadoopcommon.IpcConnectionContextProto{UserInfo: user, Protocol: proto.String(c.opts.Protocol)}
	frame, err := appendFrame(nil, c.header(contextCallID, -1), ctxMsg)
	if err != nil {
		return nil, err
	}
	if _, err := c.w.Write(frame); err != nil {
		return nil, err
	}
	return r, nil
}

func (c *conn) header(callID, retry int32) *hadoopcommon.RpcRequestHeaderProto {
	return &hadoopcommon.RpcRequestHeaderProto{
		RpcKind:    hadoopcommon.RpcKindProto_RPC_PROTOCOL_BUFFER.Enum(),
		RpcOp:      hadoopcommon.RpcRequestHeaderProto_RPC_FINAL_PACKET.Enum(),
		CallId:     proto.Int32(callID),
		ClientId:   c.clientID,
		RetryCount: proto.Int32(retry),
	}
}

// call sends one request and waits for its response, ctx permitting.
func (c *conn) call(ctx context.Context, method string, req, resp proto.Message) error {
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return fmt.Errorf("%w: %w", errNotSent, err)
	}
	id := c.nextID
	c.nextID = (c.nextID + 1) & 0x7fffffff // call ids stay non-negative
	c.pending[id] = ch
	c.mu.Unlock()

	reqHeader := &hadoopcommon.RequestHeaderProto{
		MethodName:                 proto.String(method),
		DeclaringClassProtocolName: proto.String(c.opts.Protocol),
		ClientProtocolVersion:      proto.Uint64(1),
	}
	frame, err := appendFrame(nil, c.header(id, 0), reqHeader, req)
	if err != nil {
		c.forget(id)
		return err
	}
	if err := c.write(ctx, frame); err != nil {
		c.forget(id)
		c.fail(err)
		return fmt.Errorf("%w: sending %s to %s: %w", errNotSent, method, c.addr, err)
	}

	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if _, err := unmarshalDelimited(r.body, resp); err != nil {
			return fmt.Errorf("%s response from %s: %w", method, c.addr, err)
		}
		return nil
	case <-ctx.Done():
		// The response, if it comes, is dropped by the reader.
		c.forget(id)
		return ctx.Err()
	}
}

// write sends one frame whole; frames of concurrent calls never interleave.
func (c *conn) write(ctx context.Context, frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if dl, ok := ctx.Deadline(); ok {
		c.nc.SetWriteDeadline(dl)
		defer c.nc.SetWriteDeadline(time.Time{})
	}
	_, err := c.w.Write(frame)
	c.lastWrite.Store(time.Now().UnixNano())
	return err
}

func (c *conn) forget(id int32) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// readLoop hands each response to the call waiting for it, until the
// connection breaks; then every waiting call gets the reason.
func (c *conn) readLoop(r io.Reader) {
	for {
		frame, err := readFrame(r, c.opts.MaxFrame)
		if err != nil {
			c.fail(err)
			return
		}
		id, res, err := parseResponse(frame)
		if err != nil {
			c.fail(err)
			return
		}
		if id > 0x7fffffff {
			// A connection-level failure (the server's reply to the context,
			// say): it concerns every call.
			if res.err == nil {
				res.err = malformed("response for call id %d, which no call uses", int32(id))
			}
			c.fail(res.err)
			return
		}
		c.mu.Lock()
		ch, ok := c.pending[int32(id)]
		delete(c.pending, int32(id))
		c.mu.Unlock()
		if ok {
			ch <- res
		}
		var re *RemoteError
		if errors.As(res.err, &re) && re.Fatal {
			c.fail(res.err)
			return
		}
	}
}

// parseResponse splits a response frame into its call id and what the call
// gets: the bytes of the response message, or the server's exception.
func parseResponse(frame []byte) (uint32, response, error) {
	header := &hadoopcommon.RpcResponseHeaderProto{}
	body, err := unmarshalDelimited(frame, header)
	if err != nil {
		return 0, response{}, err
	}
	if header.GetStatus() != hadoopcommon.RpcResponseHeaderProto_SUCCESS {
		if header.GetExceptionClassName() == "" {
			return 0, response{}, malformed("call %d failed with no exception class", header.GetCallId())
		}
		return header.GetCallId(), response{err: remoteError(header)}, nil
	}
	return header.GetCallId(), response{body: body}, nil
}

// fail marks the connection broken, closes it, and fails every waiting call.
func (c *conn) fail(cause error) {
	if cause == nil {
		cause = io.ErrUnexpectedEOF
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = cause
	pending := c.pending
	c.pending = map[int32]chan response{}
	c.mu.Unlock()
	close(c.done)
	c.nc.Close()
	lost := fmt.Errorf("%w to %s: %w", ErrConnectionLost, c.addr, cause)
	for _, ch := range pending {
		ch <- response{err: lost}
	}
}

func (c *conn) healthy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err == nil
}

// pingLoop keeps an idle connection known to be alive, as Hadoop's client
// does: a header with call id -4 and no body, which the server ignores.
func (c *conn) pingLoop() {
	interval := c.opts.PingInterval
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case now := <-t.C:
			if now.Sub(time.Unix(0, c.lastWrite.Load())) < interval {
				continue
			}
			frame, err := appendFrame(nil, c.header(pingCallID, -1))
			if err == nil {
				err = c.write(context.Background(), frame)
			}
			if err != nil {
				c.fail(err)
				return
			}
		}
	}
}

func (c *conn) close() {
	c.fail(net.ErrClosed)
}
