package wire

import (
	"context"
	"errors"
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
	onlyUID int          // -1: any peer
	closeFn func() error // closes ln and whatever its address needed

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

// ListenOption changes how a Listener admits connections.
type ListenOption func(*Listener)

// OnlyUID admits only peers running as uid, as the kernel tells of a Unix
// socket's peer (SO_PEERCRED), before a byte is read or written: another
// user's connection, or one that is not over a Unix socket, is closed at
// once and reported by Accept. With the socket in a directory only uid
// can enter, that is a second lock on the same door.
func OnlyUID(uid int) ListenOption {
	return func(l *Listener) { l.onlyUID = uid }
}

// Listen listens on addr for executors holding secret (SecretSize bytes;
// the Listener keeps its own copy). network is "tcp" or "unix" (addr a
// path, of any length).
func Listen(network, addr string, secret []byte, opts ...ListenOption) (*Listener, error) {
	return listen(network, addr, secret, defaultLimits, opts...)
}

func listen(network, addr string, secret []byte, lim limits, opts ...ListenOption) (*Listener, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	var ln net.Listener
	closeFn := func() error { return ln.Close() }
	var err error
	if network == "unix" {
		ln, closeFn, err = listenUnix(addr)
	} else {
		ln, err = net.Listen(network, addr)
	}
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{
		ln:        ln,
		closeFn:   closeFn,
		onlyUID:   -1,
		secret:    append([]byte(nil), secret...),
		timeout:   lim.timeout,
		admission: newAdmission(lim.perPeer, lim.total),
		conns:     make(chan *Conn),
		failed:    newFailures(),
		ctx:       ctx,
		cancel:    cancel,
	}
	for _, o := range opts {
		o(l)
	}
	l.wg.Add(1)
	go l.acceptLoop()
	return l, nil
}

// Accept returns the next authenticated connection. A connection refused
// (a peer OnlyUID keeps out), cut off (the oldest handshake in progress
// from its address, or in all, when a newer one came at the bound) or
// whose handshake failed is returned as an error wrapping ErrHandshake, naming
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
// handshake, or closes it at once if OnlyUID keeps its peer out. It never
// waits for a handshake or for Accept, so the kernel's backlog of
// connections stays short.
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
		if l.onlyUID >= 0 {
			if err := checkPeerUID(nc, l.onlyUID); err != nil {
				nc.Close()
				l.failed.add(handshakeError(nc.RemoteAddr(), "%w", err))
				continue
			}
		}
		ctx, cancel := context.WithCancelCause(l.ctx)
		t := l.admission.admit(peerOf(nc.RemoteAddr()), cancel)
		l.wg.Add(1)
		go l.handshake(ctx, cancel, t, nc)
	}
}

// handshake authenticates nc, then waits for Accept to take it.
func (l *Listener) handshake(ctx context.Context, cancel context.CancelCauseFunc, t *ticket, nc net.Conn) {
	defer l.wg.Done()
	c, err := handshake(ctx, nc, l.secret, roleDriver, l.timeout)
	l.admission.done(t)
	evicted := errors.Is(context.Cause(ctx), errEvicted)
	cancel(nil)
	if err != nil {
		if evicted {
			// A reset, not an end of stream, tells the peer it was cut off
			// (and Dial connects again), where a wrong proof is answered
			// by an orderly close.
			resetOnClose(nc)
		}
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
	err := l.closeFn()
	l.wg.Wait()
	return err
}
