package executor

import (
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// maxStatusesPerBatch keeps one StatusBatch far below wire.MaxMessageSize
// however many statuses wait: those held while the executor had no driver
// go to the next in batches of this many.
const maxStatusesPerBatch = 1024

// sendStatuses sends the tasks' statuses to the driver the run loop
// serves, batching: whatever is waiting goes in one message, so a burst
// of short tasks costs one write. drivers says which driver that is: a
// connection; nil while there is none; closed once none will come again.
//
// A status is not lost for want of a driver: one whose send failed is
// held, and while there is no driver the statuses wait in e.out, in
// order (statusBuffer of them; past that each ended task's goroutine
// holds its own), for the next, which gets them first. Only once no
// driver will come does it drop what the last one cannot take. While the
// loop serves a driver it takes every status, sent or not, so the loop
// never waits on e.out.
func (e *executor) sendStatuses(drivers <-chan *wire.Conn, done chan<- struct{}) {
	defer close(done)
	var (
		conn   *wire.Conn     // the driver's; nil once a send to it failed
		linked bool           // the loop serves a driver
		final  bool           // no driver will come again
		held   []*wire.Status // taken, not yet sent, oldest first
		sent   recentSuccesses
		// rejoined: a new driver came after another; it is sent a batch
		// at once, empty if need be, which tells it the executor has
		// said all it had to say while it had no driver.
		rejoined bool
		driven   bool // a driver has come
	)
	for {
		var in <-chan *wire.Status
		if linked || final {
			in = e.out
		}
		select {
		case c, ok := <-drivers:
			if !ok {
				final, drivers = true, nil
				break
			}
			if c != nil && sent.any() {
				// A new driver: the successes the last one may not have
				// journalled before it died go to this one too.
				held = append(sent.take(), held...)
			}
			if c != nil && driven {
				// What ended meanwhile goes in the first batch.
				rejoined, held = true, takeWaiting(held, e.out)
			}
			driven = driven || c != nil
			conn, linked = c, c != nil
		case st, ok := <-in:
			if !ok {
				return
			}
			held = takeWaiting(append(held, st), e.out)
		}
		if conn != nil && (len(held) > 0 || rejoined) {
			before := held
			if held = sendHeld(conn, held, rejoined); len(held) > 0 {
				conn = nil // its connection ended: the next driver's, then
			}
			sent.add(time.Now(), before[:len(before)-len(held)])
			rejoined = false
		}
	}
}

// takeWaiting appends the statuses already waiting in out to held.
func takeWaiting(held []*wire.Status, out <-chan *wire.Status) []*wire.Status {
	for {
		select {
		case st, ok := <-out:
			if !ok {
				return held
			}
			held = append(held, st)
		default:
			return held
		}
	}
}

// sendHeld sends held to conn in batches, at least one when always, and
// returns what it could not send (nothing, unless the connection failed).
func sendHeld(conn *wire.Conn, held []*wire.Status, always bool) []*wire.Status {
	if len(held) == 0 && always {
		conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{}}})
		return nil
	}
	for len(held) > 0 {
		n := min(len(held), maxStatusesPerBatch)
		if conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: held[:n]}}}) != nil {
			return held
		}
		held = held[n:]
	}
	return nil
}

// resendWithin and resendAtMost bound the successes a new driver is sent
// again: those sent to the last one this recently, which it may have
// taken without journalling before it died (am/journal). A success the
// new driver already has changes nothing there.
const (
	resendWithin = 30 * time.Second
	resendAtMost = 4096
)

// recentSuccesses are the SUCCEEDED statuses sent to the driver lately,
// oldest first.
type recentSuccesses struct {
	sts []*wire.Status
	at  []time.Time
}

func (r *recentSuccesses) add(now time.Time, sent []*wire.Status) {
	for _, st := range sent {
		if st.GetState() == wire.Status_SUCCEEDED {
			r.sts, r.at = append(r.sts, st), append(r.at, now)
		}
	}
	drop := max(len(r.sts)-resendAtMost, 0)
	for drop < len(r.at) && now.Sub(r.at[drop]) > resendWithin {
		drop++
	}
	r.sts, r.at = r.sts[drop:], r.at[drop:]
}

func (r *recentSuccesses) any() bool { return len(r.sts) > 0 }

// take hands over the recent successes and forgets them.
func (r *recentSuccesses) take() []*wire.Status {
	out := r.sts
	r.sts, r.at = nil, nil
	return out
}
