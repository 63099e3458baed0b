package clean

import (
	"strings"
	"testing"
)

// buffer is shared by both test files.
type buffer struct{ b strings.Builder }

func (b *buffer) String() string { return b.b.String() }

// run is shared by both test files; quote, by run alone.
func run(t *testing.T, args ...string) *buffer {
	t.Helper()
	var b buffer
	b.b.WriteString(quote(strings.Join(args, " ")))
	return &b
}

func quote(s string) string { return "'" + s + "'" }

// label is a method the tests give the package's job: a helpers file's
// methods are in their place, whatever their type.
func (j job) label() string { return "job " + j.name }
