package wire

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// Listener is the driver's end: it accepts executors' connections and
// authenticates them.
type Listener struct {
	ln      net.Listener
	secret  []byte
	timeout time.Duration

	admission *admission
	conns     chan *Conn // authenticated, for Accept
	failed    *failures
	ctx       context.Context // ends when the Listener is closed
	cancel    context.CancelFunc
	wg        sync.WaitGroup
}

// limits are a Listener's bounds: the constants, or a test's.
type limits struct {
	timeout        time.Duration // a whole handshake
	perPeer, total int           // handshakes in progress
}

var defaultLimits = limits{timeout: HandshakeTimeout, perPeer: maxPeerHandshakes, total: maxHandshakes}

// Listen listens on addr for executors holding secret (SecretSize bytes;
// the Listener keeps its own copy).
func Listen(network, addr string, secret []byte) (*Listener, error) {
	return listen(network, addr, secret, defaultLimits)
}

func listen(network, addr string, secret []byte, lim limits) (*Listener, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{
		ln:        ln,
		secret:    append([]byte(nil), secret...),
		timeout:   lim.timeout,
		admission: newAdmission(lim.perPeer, lim.total),
		conns:     make(chan *Conn),
		failed:    newFailures(),
		ctx:       ctx,
		cancel:    cancel,
	}
	l.wg.Add(1)
	go l.acceptLoop()
	return l, nil
}

// Accept returns the next authenticated connection. A connection refused
// (too many handshakes in progress from its address, or in all) or whose
// handshake failed is returned as an error wrapping ErrHandshake, naming
// the peer's address and what went wrong (unless more than
// maxKeptFailures wait to be reported), so the caller can count or log
// it; the Listener carries on, and the caller calls Accept again.
// Connections go before failures still to report. Other errors are
// ctx's, net.ErrClosed after Close, or the network's.
func (l *Listener) Accept(ctx context.Context) (*Conn, error) {
	for {
		if l.ctx.Err() != nil {
			return nil, net.ErrClosed
		}
		select {
		case c := <-l.conns:
			return c, nil
		default:
		}
		if err, ok := l.failed.next(); ok {
			return nil, err
		}
		select {
		case c := <-l.conns:
			return c, nil
		case <-l.failed.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-l.ctx.Done():
			return nil, net.ErrClosed
		}
	}
}

// acceptLoop takes connections off the socket and hands each to its own
// handshake, or closes it at once if its address, or the Listener, has
// too many in progress. It never waits for a handshake or for Accept, so
// the kernel's backlog of connections stays short.
func (l *Listener) acceptLoop() {
	defer l.wg.Done()
	var backoff time.Duration
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			if l.ctx.Err() != nil {
				return
			}
			// Out of file descriptors, say: report it, wait, and try again,
			// as net/http does.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			l.failed.add(fmt.Errorf("wire: accepting: %w", err))
			select {
			case <-time.After(backoff):
			case <-l.ctx.Done():
				return
			}
			continue
		}
		backoff = 0
		ctx, cancel := context.WithCancelCause(l.ctx)
		t, err := l.admission.admit(peerOf(nc.RemoteAddr()), cancel)
		if err != nil {
			cancel(nil)
			nc.Close()
			l.failed.add(handshakeError(nc.RemoteAddr(), "%w", err))
			continue
		}
		l.wg.Add(1)
		go l.handshake(ctx, cancel, t, nc)
	}
}

// handshake authenticates nc, then waits for Accept to take it.
func (l *Listener) handshake(ctx context.Context, cancel context.CancelCauseFunc, t *ticket, nc net.Conn) {
	defer l.wg.Done()
	c, err := handshake(ctx, nc, l.secret, roleDriver, l.timeout)
	l.admission.done(t)
	cancel(nil)
	if err != nil {
		nc.Close()
		l.failed.add(err)
		return
	}
	// Only holders of the secret get this far, so waiting costs nothing
	// an outsider can multiply.
	select {
	case l.conns <- c:
	case <-l.ctx.Done():
		c.Close()
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
