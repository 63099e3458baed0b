package amtest

import (
	"bytes"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"
)

// keptLog is a driver's log kept for its test, and shown only if the test
// fails: a passing test stays quiet, a failing one says what the driver
// did.
func keptLog(t testing.TB) logrus.FieldLogger {
	kept := &Buffer{}
	log := logrus.New()
	log.SetOutput(kept)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the driver's log:\n%s", kept.String())
		}
	})
	return log
}

// Buffer is a log's output that goroutines may write while a test reads
// it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
