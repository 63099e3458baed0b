package wire

import (
	"crypto/rand"
	"fmt"
)

// SecretSize is the length of an application's secret.
const SecretSize = 32

// NewSecret returns SecretSize bytes from the system's secure random source:
// the secret the driver shares with its executors. Hand it to them in a file
// or a YARN credential, never on a command line or in an environment
// variable (both are visible to other users of the machine), and never log it.
func NewSecret() []byte {
	s := make([]byte, SecretSize)
	rand.Read(s) // never fails: crypto/rand crashes the program instead
	return s
}

// checkSecret refuses a secret of the wrong length; the message names only
// the length.
func checkSecret(secret []byte) error {
	if len(secret) != SecretSize {
		return fmt.Errorf("wire: the secret is %d bytes, want %d", len(secret), SecretSize)
	}
	return nil
}
