package faultsim

import "time"

// conn is an executor's connection with an AM attempt: each way a queue
// in order, each message some latency in flight. What is in flight to
// an AM that dies is lost; what an AM sent before it died still
// arrives. A cut connection loses what is in flight either way.
type conn struct {
	a   *attempt
	x   *executor
	cut bool
	// toAM and toX are when the last message each way arrives: the next
	// arrives no sooner.
	toAM, toX time.Time
}

// toAttempt sends the AM what do does on arrival.
func (c *conn) toAttempt(do func()) {
	w := c.a.w
	at := w.now.Add(w.latency())
	if at.Before(c.toAM) {
		at = c.toAM
	}
	c.toAM = at
	w.at(at, func() {
		if !c.cut && !c.a.dead {
			do()
		}
	})
}

// toExecutor sends the executor what do does on arrival, while it still
// serves this connection.
func (c *conn) toExecutor(do func()) {
	w := c.a.w
	at := w.now.Add(w.latency())
	if at.Before(c.toX) {
		at = c.toX
	}
	c.toX = at
	w.at(at, func() {
		if !c.cut && c.x.conn == c && !c.x.gone {
			do()
		}
	})
}

// closed tells each end that the connection ended, after what is in
// flight to it: the executor waits for a next AM, the AM loses it.
func (c *conn) closed(why string) {
	c.toExecutor(func() { c.x.driverLost(c) })
	c.toAttempt(func() { c.a.connEnded(c, why) })
}

// sever cuts the connection: what is in flight is lost, and each end
// hears of its end a moment later.
func (c *conn) sever() {
	if c.cut {
		return
	}
	c.cut = true
	w := c.a.w
	w.after(w.latency(), func() {
		if c.x.conn == c && !c.x.gone {
			c.x.driverLost(c)
		}
	})
	w.after(w.latency(), func() {
		if !c.a.dead {
			c.a.connEnded(c, "connection cut")
		}
	})
}
