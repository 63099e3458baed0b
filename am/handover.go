package am

import (
	"errors"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// ErrHandedOver is Run's error when the AM handed the application over
// to its next attempt, its own node being decommissioned
// (core.Handover): the RM has taken its container back, counting no
// failure against the application; the caller must not unregister, and
// leaves the executors running for the next attempt to adopt.
var ErrHandedOver = errors.New("handed over to the application's next attempt: the AM's own node is being decommissioned")

// handoverFlushWait bounds how long the AM waits for the journal to be
// written out whole before it releases its own container: the next
// attempt goes on from what it holds.
const handoverFlushWait = 10 * time.Second

// handOver carries out a Handover: the journal written out whole with
// everything the loop journalled so far (this turn's drains of the
// node's executors too), then the AM's own container released. The loop
// waits meanwhile: nothing it would do could reach the next attempt
// unjournalled.
func (d *Driver) handOver(h *core.Handover) {
	if h == nil {
		return
	}
	log := d.log.WithField("deadline", h.Deadline.Format(time.RFC3339))
	log.Warnf("%s: handing the application over to its next attempt", h.Reason)
	if d.cfg.HandingOver != nil {
		d.cfg.HandingOver()
	}
	if w := d.cfg.Journal; w != nil {
		select {
		case <-w.Written():
			log.Info("the journal is written out whole for the next attempt")
		case <-time.After(handoverFlushWait):
			log.Warnf("the journal not written out in %v: the next attempt goes on from what it holds", handoverFlushWait)
		}
	}
	d.core.ReleaseAM(time.Now())
}
