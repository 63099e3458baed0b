package wire

import (
	"fmt"
	"sync"
)

// maxKeptFailures is how many failures a Listener keeps word for word
// until Accept reports them; past it, it keeps only their number.
const maxKeptFailures = 64

// errDetailsDropped stands for a failure whose details were not kept.
var errDetailsDropped = fmt.Errorf("%w (one of many at once; its details were not kept)", ErrHandshake)

// failures holds the errors Accept has yet to report, one per connection
// refused or failed, so that neither the accept loop nor a failed
// handshake waits for Accept: a flood costs a counter, not goroutines or
// memory.
type failures struct {
	mu      sync.Mutex
	kept    []error
	dropped int
	ready   chan struct{} // holds a token while there is something to report
}

func newFailures() *failures {
	return &failures{ready: make(chan struct{}, 1)}
}

func (f *failures) add(err error) {
	f.mu.Lock()
	if len(f.kept) < maxKeptFailures {
		f.kept = append(f.kept, err)
	} else {
		f.dropped++
	}
	f.mu.Unlock()
	f.signal()
}

// next takes the oldest failure to report, if there is one.
func (f *failures) next() (error, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var err error
	switch {
	case len(f.kept) > 0:
		err = f.kept[0]
		f.kept[0] = nil
		f.kept = f.kept[1:]
	case f.dropped > 0:
		f.dropped--
		err = errDetailsDropped
	default:
		return nil, false
	}
	if len(f.kept) > 0 || f.dropped > 0 {
		f.signal() // for another Accept waiting meanwhile
	}
	return err, true
}

func (f *failures) signal() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}
