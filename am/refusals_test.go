package am

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

// A burst of refusals is one line at once, with the first's details, and
// one line with the count and the latest once the interval has passed;
// after a quiet interval, the next refusal is logged at once again.
func TestRefusalsAreLoggedOncePerInterval(t *testing.T) {
	const every = 200 * time.Millisecond
	log, hook := test.NewNullLogger()
	r := newRefusalLog(log, "session client connection", every)
	start := time.Now()
	for i := range 1000 {
		r.refused(fmt.Errorf("refusal %d", i))
	}
	if n := len(hook.AllEntries()); n != 1 || hook.AllEntries()[0].Data[logrus.ErrorKey].(error).Error() != "refusal 0" {
		t.Fatalf("after a burst of 1000: %d lines (%v), want the first refusal's alone", n, hook.AllEntries())
	}
	waitEntries(t, hook, 2, 5*every)
	if took := time.Since(start); took < every {
		t.Errorf("the count was logged after %v, before the interval of %v", took, every)
	}
	counted := hook.AllEntries()[1]
	if counted.Data["refused"] != 999 || counted.Data[logrus.ErrorKey].(error).Error() != "refusal 999" ||
		!strings.Contains(counted.Message, "999 more session client connections refused") {
		t.Errorf("the interval's line: %q %v; want the count, 999, and the latest", counted.Message, counted.Data)
	}

	// Within the next interval: counted, not logged; close logs the count.
	r.refused(errors.New("late"))
	if n := len(hook.AllEntries()); n != 2 {
		t.Errorf("a refusal within the interval after a line: %d lines, want it counted only", n)
	}
	r.close()
	if n := len(hook.AllEntries()); n != 3 || hook.AllEntries()[2].Data["refused"] != 1 {
		t.Errorf("close: %d lines, want the one counted logged", n)
	}

	// Quiet for an interval: the next is logged at once.
	time.Sleep(every)
	r.refused(errors.New("after a quiet spell"))
	if n := len(hook.AllEntries()); n != 4 || hook.AllEntries()[3].Data[logrus.ErrorKey].(error).Error() != "after a quiet spell" {
		t.Errorf("after a quiet interval: %d lines, want the refusal logged at once", n)
	}
	r.close()
}

func waitEntries(t *testing.T, hook *test.Hook, n int, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); len(hook.AllEntries()) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d lines after %v, want %d", len(hook.AllEntries()), within, n)
		}
	}
}
