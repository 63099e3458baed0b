package am

import (
	"testing"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// What the package's internal tests share. The driver's own tests run it
// with am/amtest, from package am_test; those here test unexported
// pieces (the outbox, the followers).

var (
	testSecret    = []byte("0123456789abcdef0123456789abcdef")
	sessionSecret = []byte("fedcba9876543210fedcba9876543210")
)

// listen listens for executors on the loopback interface, until the test
// ends (or Run closes it). It is amtest.Listen, written again: these tests
// are package am's own, and amtest imports am.
func listen(t *testing.T, secret []byte) *wire.Listener {
	t.Helper()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
