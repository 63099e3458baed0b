package browser

import (
	"bytes"
	"testing"
)

// The tail keeps chromium's last tailSize bytes: all of them at exactly
// the limit, the oldest one dropped one past it.
func TestTailKeepsTheLastBytes(t *testing.T) {
	var l tail
	full := bytes.Repeat([]byte("abcdefgh"), tailSize/8)
	l.Write(full)
	if got := l.String(); got != string(full) {
		t.Fatalf("at the limit the tail kept %d bytes, want all %d", len(got), tailSize)
	}
	l.Write([]byte("Z"))
	got := l.String()
	if len(got) != tailSize || got[:2] != "bc" || got[len(got)-2:] != "hZ" {
		t.Errorf("one past the limit the tail kept %d bytes starting %q and ending %q, want the last %d", len(got), got[:2], got[len(got)-2:], tailSize)
	}
}
