package am

import (
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// What the package's own tests in package am_test (which run the driver
// with am/amtest) need of its insides: a look at the loop's own state,
// taken in the loop, and names they time or compare against.

const RegisterTimeout = registerTimeout

var (
	ExecutorTag = executorTag
	Priority    = priority
)

// inLoop runs f in d's loop, as an event.
type inLoop struct {
	f    func()
	done chan struct{}
}

func (ev inLoop) feed(*Driver, time.Time) { ev.f(); close(ev.done) }

// runInLoop runs f in d's loop and waits for it; false once Run has
// returned, when f does not run.
func runInLoop(d *Driver, f func()) bool {
	ev := inLoop{f, make(chan struct{})}
	select {
	case d.events <- ev:
	case <-d.done:
		return false
	}
	select {
	case <-ev.done:
		return true
	case <-d.done:
		return false
	}
}

// GPUFiguresKept counts the executors whose GPU figures d keeps.
func GPUFiguresKept(d *Driver) (n int) {
	runInLoop(d, func() { n = len(d.gpus) })
	return n
}

// WriterDone is closed when the writer of executor id's connection has
// returned; nil when id has none.
func WriterDone(d *Driver, id string) (done <-chan struct{}) {
	runInLoop(d, func() {
		if out := d.conns[scheduler.ExecutorID(id)]; out != nil {
			done = out.done
		}
	})
	return done
}
