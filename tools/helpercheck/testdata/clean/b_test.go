package clean

import "testing"

// twice and IntN are methods of a helpers file's type that only this
// file calls.
func (b *buffer) twice() string { return b.String() + b.String() }

func (b *buffer) IntN(n int) int { return len(b.String()) % n }

func TestB(t *testing.T) {
	// A local named as another file's helper is not a use of it.
	onlyA := "b"
	if got := run(t, onlyA); got.twice() == "" || got.IntN(2) > 1 {
		t.Errorf("run: %q", got)
	}
}
