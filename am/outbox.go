package am

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// outboxSize bounds the messages waiting for one executor's writer. In one
// turn the loop gives an executor a handful of messages and a Kill per task
// it runs (a task per core at most), and a writer whose peer reads empties
// its queue between turns: a full queue means writes that have stalled for
// many turns, a peer that is not reading.
const outboxSize = 1024

// outbox is the way out of one executor's connection. The loop only posts
// to it, which never waits; the connection's writer, a goroutine of its
// own, sends what is posted in order, each message within writeTimeout. A
// peer that stops taking what is sent, so that a write outlasts its
// deadline or the queue overflows, is cut off: its connection is closed,
// its reader reports the end, and the loop handles it as any executor
// whose connection ended.
type outbox struct {
	conn *wire.Conn
	// queue holds what the loop posted; a nil message closes the
	// connection once what is before it is sent.
	queue chan *wire.Envelope
	// closing, the loop's own, says the loop posted the close: later posts
	// go nowhere.
	closing bool
	// writeTimeout bounds each write.
	writeTimeout time.Duration
	// cause is why the connection was cut off, if it was, recorded before
	// the connection is closed.
	cause atomic.Pointer[error]
	log   logrus.FieldLogger
	// ended is closed by the connection's reader when it ends; done by the
	// writer when it returns, for whoever must know it is gone (tests).
	ended, done chan struct{}
}

// newOutbox returns conn's outbox, holding up to size messages; its writer
// is to run in a goroutine of its own (write). writeTimeout is the heartbeat
// timeout: a peer that takes nothing sent to it for as long as the core
// waits for a word from it is as lost as one that says nothing. A cut-off
// is logged to log.
func newOutbox(conn *wire.Conn, size int, writeTimeout time.Duration, log logrus.FieldLogger) *outbox {
	return &outbox{conn: conn, queue: make(chan *wire.Envelope, size), writeTimeout: writeTimeout, log: log,
		ended: make(chan struct{}), done: make(chan struct{})}
}

// post queues m for the peer, from the loop; it never waits. A full queue
// cuts the peer off.
func (o *outbox) post(m *wire.Envelope) {
	if o.closing {
		return
	}
	select {
	case o.queue <- m:
	default:
		o.cutOff(fmt.Errorf("cut off with %d messages waiting to be sent: the executor is not reading", cap(o.queue)))
	}
}

// closeAfter posts m, from the loop, and then closes the connection once
// it is sent.
func (o *outbox) closeAfter(m *wire.Envelope) {
	o.post(m)
	o.post(nil)
	o.closing = true
}

// write sends what is posted until the connection closes or ends; it runs
// in the connection's writer goroutine.
func (o *outbox) write() {
	defer close(o.done)
	// One timer for every write, reset for each: a write still going when
	// it fires is cut off, the cause recorded before the connection
	// closes, so that the reader reports it.
	late := time.AfterFunc(o.writeTimeout, func() {
		o.cutOff(fmt.Errorf("cut off: a message was not taken within %v: the executor is not reading", o.writeTimeout))
	})
	late.Stop()
	for {
		select {
		case m := <-o.queue:
			if m == nil {
				o.conn.Close()
				return
			}
			late.Reset(o.writeTimeout)
			err := o.conn.Send(m)
			late.Stop()
			if err != nil {
				o.cutOff(err)
				return
			}
		case <-o.ended:
			return
		}
	}
}

// cutOff closes the connection, recording and logging why first; safe
// from any goroutine, and the first cause stays. A connection whose reader
// already ended needs no word.
func (o *outbox) cutOff(why error) {
	select {
	case <-o.ended:
	default:
		if o.cause.CompareAndSwap(nil, &why) {
			o.log.Warn(why.Error())
		}
	}
	o.conn.Close()
}

// end tells the writer, from the connection's reader once the connection
// ended (which closed it), and returns why: the cause it was cut off for,
// if it was, else err, the reader's.
func (o *outbox) end(err error) error {
	close(o.ended)
	if c := o.cause.Load(); c != nil {
		return *c
	}
	return err
}
