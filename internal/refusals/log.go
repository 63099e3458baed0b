package refusals

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// Log counts one listener's refusals and logs them at most once per
// interval; safe from any goroutine.
type Log struct {
	log   logrus.FieldLogger
	what  string // what was refused: "session client connection"
	every time.Duration
	// now and afterFunc are the clock: time.Now and time.AfterFunc but
	// in tests, which move time themselves.
	now       func() time.Time
	afterFunc func(time.Duration, func()) timer

	mu     sync.Mutex
	last   time.Time // when a line was last logged
	count  int       // refusals since, not logged yet
	latest error
	timer  timer // logs count once the interval has passed
}

// timer is what Log needs of a *time.Timer.
type timer interface{ Stop() bool }

// New is a Log of what is refused ("session client connection"), which
// logs a line at most every interval.
func New(log logrus.FieldLogger, what string, every time.Duration) *Log {
	return &Log{log: log, what: what, every: every, now: time.Now,
		afterFunc: func(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }}
}

// Refused logs err, or counts it for the interval's line.
func (r *Log) Refused(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if r.count == 0 && now.Sub(r.last) >= r.every {
		r.log.WithError(err).Warnf("%s refused (more within %v are counted, not logged one by one)", r.what, r.every)
		r.last = now
		return
	}
	r.count++
	r.latest = err
	if r.timer == nil {
		r.timer = r.afterFunc(r.last.Add(r.every).Sub(now), r.flush)
	}
}

// flush logs the refusals counted since the last line.
func (r *Log) flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer = nil
	if r.count == 0 {
		return
	}
	now := r.now()
	r.log.WithError(r.latest).WithField("refused", r.count).
		Warnf("%d more %ss refused in the %v before; the latest error is given", r.count, r.what, now.Sub(r.last).Round(time.Second))
	r.count, r.latest, r.last = 0, nil, now
}

// Close logs what is counted and stops the timer.
func (r *Log) Close() {
	r.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.mu.Unlock()
	r.flush()
}
