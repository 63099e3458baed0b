package refusals

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

// fakeClock is a Log's clock that moves only when the test says: a timer
// fires, in the test's goroutine, once the clock reaches it.
type fakeClock struct {
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (t *fakeTimer) Stop() bool {
	was := !t.stopped
	t.stopped = true
	return was
}

func (c *fakeClock) afterFunc(d time.Duration, f func()) timer {
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// advance moves the clock on by d and fires the timers due.
func (c *fakeClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		if !t.stopped && !t.at.After(c.now) {
			t.stopped = true
			t.f()
		}
	}
}

func withClock(r *Log) *fakeClock {
	c := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	r.now, r.afterFunc = func() time.Time { return c.now }, c.afterFunc
	return c
}

// A burst of refusals is one line at once, with the first's details, and
// one line with the count and the latest once the interval has passed;
// after a quiet interval, the next refusal is logged at once again.
func TestRefusalsAreLoggedOncePerInterval(t *testing.T) {
	const every = 10 * time.Second
	log, hook := test.NewNullLogger()
	r := New(log, "session client connection", every)
	clock := withClock(r)
	for i := range 1000 {
		r.Refused(fmt.Errorf("refusal %d", i))
	}
	if n := len(hook.AllEntries()); n != 1 || hook.AllEntries()[0].Data[logrus.ErrorKey].(error).Error() != "refusal 0" {
		t.Fatalf("after a burst of 1000: %d lines (%v), want the first refusal's alone", n, hook.AllEntries())
	}
	clock.advance(every - time.Nanosecond)
	if n := len(hook.AllEntries()); n != 1 {
		t.Fatalf("the count was logged before the interval of %v had passed: %d lines", every, n)
	}
	clock.advance(time.Nanosecond)
	if n := len(hook.AllEntries()); n != 2 {
		t.Fatalf("once the interval has passed: %d lines, want the count's too", n)
	}
	counted := hook.AllEntries()[1]
	if counted.Data["refused"] != 999 || counted.Data[logrus.ErrorKey].(error).Error() != "refusal 999" ||
		!strings.Contains(counted.Message, "999 more session client connections refused in the 10s before") {
		t.Errorf("the interval's line: %q %v; want the count, 999, and the latest", counted.Message, counted.Data)
	}

	// Within the next interval: counted, not logged; Close logs the count.
	r.Refused(errors.New("late"))
	if n := len(hook.AllEntries()); n != 2 {
		t.Errorf("a refusal within the interval after a line: %d lines, want it counted only", n)
	}
	r.Close()
	if n := len(hook.AllEntries()); n != 3 || hook.AllEntries()[2].Data["refused"] != 1 {
		t.Errorf("Close: %d lines, want the one counted logged", n)
	}

	// Quiet for an interval: the next is logged at once.
	clock.advance(every)
	r.Refused(errors.New("after a quiet spell"))
	if n := len(hook.AllEntries()); n != 4 || hook.AllEntries()[3].Data[logrus.ErrorKey].(error).Error() != "after a quiet spell" {
		t.Errorf("after a quiet interval: %d lines, want the refusal logged at once", n)
	}
	r.Close()
	if n := len(hook.AllEntries()); n != 4 {
		t.Errorf("Close with nothing counted: %d lines, want none more", n)
	}
}
