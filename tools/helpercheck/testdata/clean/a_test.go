package clean

import (
	"math/rand/v2"
	"testing"
)

// recorder is this file's own: its Errorf is not b_test.go's t.Errorf.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) { r.msgs = append(r.msgs, format) }

func onlyA() string { return "a" }

func TestA(t *testing.T) {
	var r recorder
	// rand.IntN is the package's, not b_test.go's buffer.IntN.
	r.Errorf("%s %d %s", run(t, onlyA()).String(), rand.IntN(3), job{"a"}.label())
}
