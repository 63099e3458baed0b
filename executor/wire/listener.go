package wire

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// maxHandshakes bounds the handshakes in progress at once. Handshakes run
// beside one another so that a silent or slow client delays nobody; past
// this many, new connections wait in the kernel's backlog.
const maxHandshakes = 64

// Listener is the driver's end: it accepts executors' connections and
// authenticates them.
type Listener struct {
	ln      net.Listener
	secret  []byte
	timeout time.Duration

	results chan accepted
	slots   chan struct{}
	ctx     context.Context // ends when the Listener is closed
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// accepted is the outcome of one connection's handshake.
type accepted struct {
	conn *Conn
	err  error
}

// Listen listens on addr for executors holding secret (SecretSize bytes;
// the Listener keeps its own copy).
func Listen(network, addr string, secret []byte) (*Listener, error) {
	return listen(network, addr, secret, HandshakeTimeout)
}

func listen(network, addr string, secret []byte, timeout time.Duration) (*Listener, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{
		ln:      ln,
		secret:  append([]byte(nil), secret...),
		timeout: timeout,
		results: make(chan accepted),
		slots:   make(chan struct{}, maxHandshakes),
		ctx:     ctx,
		cancel:  cancel,
	}
	l.wg.Add(1)
	go l.acceptLoop()
	return l, nil
}

// Accept returns the next authenticated connection. A connection whose
// handshake failed is returned as an error wrapping ErrHandshake, naming
// the peer's address and what went wrong, so the caller can count or log
// it; the Listener carries on, and the caller calls Accept again. Other
// errors are ctx's, net.ErrClosed after Close, or the network's.
func (l *Listener) Accept(ctx context.Context) (*Conn, error) {
	select {
	case r := <-l.results:
		return r.conn, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.ctx.Done():
		return nil, net.ErrClosed
	}
}

// acceptLoop takes connections off the socket and hands each to its own
// handshake.
func (l *Listener) acceptLoop() {
	defer l.wg.Done()
	var backoff time.Duration
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.ctx.Done():
			return
		}
		nc, err := l.ln.Accept()
		if err != nil {
			<-l.slots
			if l.ctx.Err() != nil {
				return
			}
			// Out of file descriptors, say: report it, wait, and try again,
			// as net/http does.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			l.deliver(accepted{err: fmt.Errorf("wire: accepting: %w", err)})
			select {
			case <-time.After(backoff):
			case <-l.ctx.Done():
				return
			}
			continue
		}
		backoff = 0
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer func() { <-l.slots }()
			c, err := handshake(l.ctx, nc, l.secret, roleDriver, l.timeout)
			if err != nil {
				nc.Close()
			}
			l.deliver(accepted{conn: c, err: err})
		}()
	}
}

// deliver hands r to an Accept, or discards it once the Listener is closed.
func (l *Listener) deliver(r accepted) {
	select {
	case l.results <- r:
	case <-l.ctx.Done():
		if r.conn != nil {
			r.conn.Close()
		}
	}
}

// Addr is the address the Listener listens on.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Close stops listening and ends the handshakes in progress; connections
// Accept already returned stay open. It returns once nothing of the
// Listener is running.
func (l *Listener) Close() error {
	l.cancel()
	err := l.ln.Close()
	l.wg.Wait()
	return err
}
