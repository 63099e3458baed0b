package wire

import (
	"crypto/rand"
	"fmt"
)

// The hello is each side's first message, sent in the clear: it names the
// protocol and the sender's role and carries the sender's fresh nonce.
//
//	+-------+---------+------+--------------------+
//	| magic | version | role | nonce              |
//	| SPWR  | 1       | D, E | 32 random bytes    |
//	+-------+---------+------+--------------------+
//	  4       1         1      32                  = 38 bytes
const (
	magic        = "SPWR"
	version      = 1
	roleDriver   = 'D'
	roleExecutor = 'E'
	nonceSize    = 32
	helloSize    = len(magic) + 2 + nonceSize
)

type hello [helloSize]byte

func newHello(role byte) *hello {
	var h hello
	copy(h[:], magic)
	h[len(magic)] = version
	h[len(magic)+1] = role
	rand.Read(h.nonce()) // never fails: crypto/rand crashes the program instead
	return &h
}

func (h *hello) nonce() []byte { return h[len(magic)+2:] }

// check refuses a hello that is not this protocol's, is another version, or
// comes from the wrong role: a driver only talks to executors and an
// executor only to a driver, so neither can be made to talk to itself.
func (h *hello) check(wantRole byte) error {
	if string(h[:len(magic)]) != magic {
		return fmt.Errorf("the peer does not speak spindle-wire (it sent %q)", h[:len(magic)])
	}
	if v := h[len(magic)]; v != version {
		return fmt.Errorf("the peer speaks spindle-wire version %d, want %d", v, version)
	}
	if r := h[len(magic)+1]; r != wantRole {
		return fmt.Errorf("the peer's role is %s, want %s", roleName(r), roleName(wantRole))
	}
	return nil
}

func roleName(r byte) string {
	switch r {
	case roleDriver:
		return "driver"
	case roleExecutor:
		return "executor"
	}
	return fmt.Sprintf("%q", r)
}
