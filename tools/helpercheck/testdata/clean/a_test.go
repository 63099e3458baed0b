package clean

import "testing"

// recorder is this file's own: its Errorf is not b_test.go's t.Errorf.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) { r.msgs = append(r.msgs, format) }

func onlyA() string { return "a" }

func TestA(t *testing.T) {
	var r recorder
	r.Errorf("%s", run(t, onlyA()).String())
}
