package browser

import (
	"fmt"
	"sync"
)

// tailSize bounds what is kept of chromium's output: enough to see why it
// failed, never a long test's whole chatter.
const tailSize = 64 << 10

// tail keeps the last tailSize bytes of what chromium and chromedp say,
// written from their own goroutines, to show when a test fails (never
// after it ends: t.Logf then panics).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (l *tail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if over := len(l.buf) - tailSize; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	return len(p), nil
}

func (l *tail) printf(format string, args ...any) {
	fmt.Fprintf(l, format+"\n", args...)
}

func (l *tail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
