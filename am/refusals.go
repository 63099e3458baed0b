package am

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// refusalLogEvery is the least time between two lines of a refusalLog.
const refusalLogEvery = 10 * time.Second

// refusalLog logs the connections a listener refused at most once per
// interval. Anyone who can connect can make refusals, thousands a second,
// and a line for each would fill the disk through the driver's log. The
// first refusal after a quiet interval is logged at once, with its
// details, for the user whose client is misconfigured; the ones that
// follow within the interval are counted, and logged as one line with the
// count and the latest when it has passed.
type refusalLog struct {
	log   logrus.FieldLogger
	what  string // what was refused: "session client connection"
	every time.Duration

	mu     sync.Mutex
	last   time.Time // when a line was last logged
	count  int       // refusals since, not logged yet
	latest error
	timer  *time.Timer // logs count once the interval has passed
}

func newRefusalLog(log logrus.FieldLogger, what string, every time.Duration) *refusalLog {
	return &refusalLog{log: log, what: what, every: every}
}

// refused logs err, or counts it for the interval's line.
func (r *refusalLog) refused(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if r.count == 0 && now.Sub(r.last) >= r.every {
		r.log.WithError(err).Warnf("%s refused (more within %v are counted, not logged one by one)", r.what, r.every)
		r.last = now
		return
	}
	r.count++
	r.latest = err
	if r.timer == nil {
		r.timer = time.AfterFunc(r.last.Add(r.every).Sub(now), r.flush)
	}
}

// flush logs the refusals counted since the last line.
func (r *refusalLog) flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer = nil
	if r.count == 0 {
		return
	}
	now := time.Now()
	r.log.WithError(r.latest).WithField("refused", r.count).
		Warnf("%d more %ss refused in the %v before; the latest error is given", r.count, r.what, now.Sub(r.last).Round(time.Second))
	r.count, r.latest, r.last = 0, nil, now
}

// close logs what is counted and stops the timer.
func (r *refusalLog) close() {
	r.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.mu.Unlock()
	r.flush()
}
