package wire

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"
)

// Buffers up to this size are kept for the next frame; a rare larger one is
// allocated for that frame alone, so one big batch does not pin its memory
// to the connection for good.
const keptBufferSize = 256 << 10

// Conn is an authenticated, encrypted connection between the driver and one
// executor, carrying one Envelope per frame. Send may be called from many
// goroutines at once; Recv from one at a time. Any error from a received
// frame, or from writing one, closes the connection: after a bad frame
// nothing later on the stream can be trusted, and after a partial write the
// peer can no longer find frame boundaries.
type Conn struct {
	nc        net.Conn
	closeOnce sync.Once
	closeErr  error

	sendMu  sync.Mutex
	send    direction
	sendErr error

	// Recv's state.
	r       *bufio.Reader
	recv    direction
	header  [headerSize]byte
	body    []byte
	recvErr error
}

func newConn(nc net.Conn, keys sessionKeys, self byte) (*Conn, error) {
	sendKey, recvKey := keys.executorKey, keys.driverKey
	if self == roleDriver {
		sendKey, recvKey = keys.driverKey, keys.executorKey
	}
	send, err := newDirection(sendKey)
	if err != nil {
		return nil, err
	}
	recv, err := newDirection(recvKey)
	if err != nil {
		return nil, err
	}
	return &Conn{nc: nc, send: send, recv: recv, r: bufio.NewReaderSize(nc, 64<<10)}, nil
}

// frames recycles Send's buffers: encoding and sealing happen in one buffer
// that goes to the kernel in one write.
var frames = sync.Pool{New: func() any { return new([]byte) }}

// Send encodes, seals and writes m as one frame with a single write. It is
// safe for concurrent use; frames go out whole, in the order their Sends
// take the connection.
func (c *Conn) Send(m *Envelope) error {
	if m.GetMessage() == nil {
		return errors.New("wire: sending an envelope with no message")
	}
	buf := frames.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= keptBufferSize {
			frames.Put(buf)
		}
	}()
	frame, err := proto.MarshalOptions{}.MarshalAppend(append((*buf)[:0], 0, 0, 0, 0), m)
	if err != nil {
		return fmt.Errorf("wire: encoding the envelope: %w", err)
	}
	if n := len(frame) - headerSize; n > MaxMessageSize {
		return fmt.Errorf("wire: an envelope of %d bytes exceeds the limit of %d; send smaller batches", n, MaxMessageSize)
	}

	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if c.sendErr != nil {
		return c.sendErr
	}
	if frame, err = c.send.seal(frame); err == nil {
		_, err = c.nc.Write(frame)
	}
	*buf = frame
	if err != nil {
		c.sendErr = fmt.Errorf("wire: sending to %s: %w", c.nc.RemoteAddr(), err)
		c.Close()
		return c.sendErr
	}
	return nil
}

// Recv returns the next message. It returns io.EOF when the peer closed the
// connection between frames (the peer's Shutdown tells an orderly end from
// a crash), and an error wrapping ErrBadFrame for a frame that is too long,
// fails authentication or is not an Envelope. After any error the
// connection is closed and Recv returns that error again.
func (c *Conn) Recv() (*Envelope, error) {
	if c.recvErr != nil {
		return nil, c.recvErr
	}
	m, err := c.readFrame()
	if err != nil {
		c.recvErr = err
		c.Close()
		return nil, err
	}
	return m, nil
}

func (c *Conn) readFrame() (*Envelope, error) {
	if _, err := io.ReadFull(c.r, c.header[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("wire: reading from %s: %w", c.nc.RemoteAddr(), err)
	}
	n, err := bodySize(c.header[:])
	if err != nil {
		return nil, err
	}
	body := c.bodyBuffer(n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("wire: reading a frame of %d bytes from %s: %w", n, c.nc.RemoteAddr(), err)
	}
	plain, err := c.recv.open(c.header[:], body)
	if err != nil {
		return nil, err
	}
	m := new(Envelope)
	if err := proto.Unmarshal(plain, m); err != nil {
		return nil, badFrame("not an envelope: %v", err)
	}
	if m.Message == nil {
		return nil, badFrame("an envelope with no message")
	}
	return m, nil
}

// bodyBuffer returns n bytes to read a frame body into (n is already checked
// against the limit); Unmarshal copies what it keeps, so it can be reused.
func (c *Conn) bodyBuffer(n int) []byte {
	if n <= cap(c.body) {
		return c.body[:n]
	}
	b := make([]byte, n)
	if n <= keptBufferSize {
		c.body = b
	}
	return b
}

// Close closes the connection; Send and Recv blocked on it return. It is
// safe to call more than once and from any goroutine.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.nc.Close() })
	return c.closeErr
}

// SetReadDeadline bounds the wait of Recv, as net.Conn's does, to bound
// how long a peer may take to say something; Recv past it fails, which
// closes the connection. The zero time removes the bound.
func (c *Conn) SetReadDeadline(t time.Time) error { return c.nc.SetReadDeadline(t) }

// SetWriteDeadline bounds the wait of Send, as net.Conn's does, to bound
// how long a peer may take to take what is sent; Send past it fails, which
// closes the connection. The zero time removes the bound.
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.nc.SetWriteDeadline(t) }

// RemoteAddr is the peer's network address.
func (c *Conn) RemoteAddr() net.Addr { return c.nc.RemoteAddr() }
