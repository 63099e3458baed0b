package am

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// connPair returns the two ends of an authenticated connection over
// loopback: the driver's and the executor's.
func connPair(t *testing.T) (driver, executor *wire.Conn) {
	t.Helper()
	ln := listen(t, testSecret)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	accepted := make(chan *wire.Conn, 1)
	go func() {
		conn, _ := ln.Accept(ctx)
		accepted <- conn
	}()
	executor, err := wire.Dial(ctx, "tcp", ln.Addr().String(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	driver = <-accepted
	if driver == nil {
		t.Fatal("the listener accepted no connection")
	}
	t.Cleanup(func() { driver.Close(); executor.Close() })
	return driver, executor
}

func quiet() logrus.FieldLogger {
	log := logrus.New()
	log.SetOutput(io.Discard)
	return log
}

func kill(index int) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_Kill{Kill: &wire.Kill{TaskIndex: int32(index)}}}
}

// closed waits up to 5s for ch to be closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

// The queue takes exactly its bound; one more message cuts the peer off,
// and nothing is queued after that.
func TestOutboxTakesExactlyItsBound(t *testing.T) {
	conn, peer := connPair(t)
	o := newOutbox(conn, 4, time.Minute, quiet()) // no writer: nothing leaves the queue
	for i := range 4 {
		o.post(kill(i))
	}
	if c := o.cause.Load(); c != nil || o.closing {
		t.Fatalf("cut off at the bound: %v", *c)
	}
	o.post(kill(4))
	c := o.cause.Load()
	if c == nil || !strings.Contains((*c).Error(), "4 messages waiting") {
		t.Fatalf("cause %v; want the peer cut off for its 4 messages waiting", c)
	}
	peer.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := peer.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("the peer reads %v; want the connection closed", err)
	}
	o.post(kill(5))
	if len(o.queue) != 4 {
		t.Errorf("%d messages queued after the cut; want the 4 before it", len(o.queue))
	}
}

// Nothing is queued after the close.
func TestOutboxTakesNothingAfterTheClose(t *testing.T) {
	conn, _ := connPair(t)
	o := newOutbox(conn, 4, time.Minute, quiet()) // no writer: nothing leaves the queue
	o.closeAfter(kill(0))
	o.post(kill(1))
	if len(o.queue) != 2 {
		t.Errorf("%d messages queued; want the one before the close and the close", len(o.queue))
	}
}

// A peer that takes nothing is cut off once a write has waited the
// timeout, not before; the reader then hears why, and the writer is gone.
func TestOutboxCutsOffAPeerThatDoesNotRead(t *testing.T) {
	conn, _ := connPair(t)
	const timeout = 300 * time.Millisecond
	o := newOutbox(conn, 4, timeout, quiet())
	go o.write()
	// The connection's reader, as the driver's: it ends when the writer
	// closes the connection.
	heard := make(chan error, 1)
	go func() {
		_, err := conn.Recv()
		heard <- o.end(err)
	}()
	start := time.Now()
	// More than a loopback socket's buffers take from a peer that does
	// not read.
	o.post(credentialsMessage(make([]byte, 12<<20)))
	if !closed(o.done) {
		t.Fatal("the writer still waits on a peer that does not read")
	}
	if took := time.Since(start); took < timeout {
		t.Errorf("cut off after %v; want the timeout of %v waited", took, timeout)
	}
	if why := <-heard; !strings.Contains(why.Error(), "not taken within 300ms") {
		t.Errorf("the reader hears %v; want the write's timeout", why)
	}
}

// The first cause stays: a queue that overflows while a write waits is
// why the peer was cut off, not the write that failed when it was.
func TestOutboxKeepsTheFirstCause(t *testing.T) {
	conn, _ := connPair(t)
	o := newOutbox(conn, 1, time.Minute, quiet())
	go o.write()
	o.post(credentialsMessage(make([]byte, 12<<20))) // the writer takes it and waits
	for i := 0; o.cause.Load() == nil; i++ {
		if i == 2 {
			t.Fatal("the queue of 1 took a second message")
		}
		o.post(kill(i)) // the second of these that the writer has not taken overflows
	}
	if !closed(o.done) {
		t.Fatal("the writer still waits after the cut")
	}
	_, err := conn.Recv()
	if why := o.end(err); !strings.Contains(why.Error(), "1 messages waiting") {
		t.Errorf("the reader hears %v; want the overflow", why)
	}
}

// A peer that reads gets every message in the order posted, then the
// connection closes after the last, and the writer ends.
func TestOutboxKeepsOrderAndClosesAfter(t *testing.T) {
	conn, peer := connPair(t)
	o := newOutbox(conn, outboxSize, time.Minute, quiet())
	go o.write()
	const n = 1000
	for i := range n {
		o.post(kill(i))
	}
	o.closeAfter(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
	peer.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i := range n {
		m, err := peer.Recv()
		if err != nil || m.GetKill() == nil || int(m.GetKill().GetTaskIndex()) != i {
			t.Fatalf("message %d: %v, %v; want Kill %d", i, m, err, i)
		}
	}
	if m, err := peer.Recv(); err != nil || m.GetShutdown() == nil {
		t.Fatalf("after the kills: %v, %v; want Shutdown", m, err)
	}
	if m, err := peer.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("after Shutdown: %v, %v; want the connection closed", m, err)
	}
	if !closed(o.done) {
		t.Fatal("the writer did not end with the connection")
	}
	if c := o.cause.Load(); c != nil {
		t.Errorf("a peer that read all was cut off: %v", *c)
	}
}

// A writer with nothing to send ends when the connection's reader does.
func TestOutboxWriterEndsWithTheReader(t *testing.T) {
	conn, peer := connPair(t)
	o := newOutbox(conn, 4, time.Minute, quiet())
	go o.write()
	peer.Close()
	_, err := conn.Recv()
	ended := make(chan error, 1)
	go func() { ended <- o.end(err) }()
	select {
	case why := <-ended:
		if why != err {
			t.Errorf("the reader hears %v; want its own %v", why, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the writer outlives its connection")
	}
}

// The timeout bounds each write, not the connection's life: a peer that
// reads is not cut off however long it waits between messages. Its idle
// spells are timed by a second outbox, of three times the timeout, whose
// peer does not read: once that one is cut off, the first has been idle
// for three of its timeouts.
func TestOutboxTimesWritesNotIdleness(t *testing.T) {
	conn, peer := connPair(t)
	const timeout = 100 * time.Millisecond
	o := newOutbox(conn, 4, timeout, quiet())
	go o.write()
	defer o.end(nil) // the writer ends with the test
	peer.SetReadDeadline(time.Now().Add(5 * time.Second))
	for i := range 2 {
		o.post(kill(i))
		if m, err := peer.Recv(); err != nil || int(m.GetKill().GetTaskIndex()) != i {
			t.Fatalf("message %d: %v, %v; want Kill %d", i, m, err, i)
		}
		idle(t, 3*timeout)
	}
	if c := o.cause.Load(); c != nil {
		t.Errorf("an idle peer that reads was cut off: %v", *c)
	}
}

// idle returns once an outbox of timeout whose peer takes nothing has
// been cut off: timeout at least from now.
func idle(t *testing.T, timeout time.Duration) {
	t.Helper()
	conn, _ := connPair(t)
	clock := newOutbox(conn, 1, timeout, quiet())
	go clock.write()
	clock.post(credentialsMessage(make([]byte, 12<<20))) // more than loopback's buffers take
	if !closed(clock.done) {
		t.Fatal("an outbox whose peer does not read was not cut off")
	}
}
