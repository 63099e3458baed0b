package clean

import "testing"

// twice is a method of a helpers file's type that only this file calls.
func (b *buffer) twice() string { return b.String() + b.String() }

func TestB(t *testing.T) {
	// A local named as another file's helper is not a use of it.
	onlyA := "b"
	if got := run(t, onlyA).twice(); got == "" {
		t.Errorf("run: %q", got)
	}
}
