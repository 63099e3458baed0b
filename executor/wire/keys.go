package wire

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
)

// Labels for HKDF-Expand: one key per role and purpose, so that nothing
// sealed or proved by one side is ever accepted from the other.
const (
	labelDriverKey        = "spindle-wire v1 driver key"
	labelExecutorKey      = "spindle-wire v1 executor key"
	labelDriverFinished   = "spindle-wire v1 driver finished"
	labelExecutorFinished = "spindle-wire v1 executor finished"
	keySize               = 32 // AES-256
	finishedSize          = sha256.Size
)

// sessionKeys are what one handshake derives. Each is named by the role
// that uses it to send: the driver seals with driverKey and proves with
// driverFinished; the executor opens with driverKey and checks with
// driverFinished.
type sessionKeys struct {
	driverKey, executorKey           []byte
	driverFinished, executorFinished []byte
}

// deriveKeys runs HKDF-SHA256 over the secret, salted with both nonces: the
// keys are fresh for every connection even though the secret never changes,
// and neither side alone chooses them.
func deriveKeys(secret []byte, executor, driver *hello) (sessionKeys, error) {
	salt := make([]byte, 0, 2*nonceSize)
	salt = append(append(salt, driver.nonce()...), executor.nonce()...)
	prk, err := hkdf.Extract(sha256.New, secret, salt)
	if err != nil {
		return sessionKeys{}, err
	}
	var k sessionKeys
	for _, out := range []struct {
		key   *[]byte
		label string
	}{
		{&k.driverKey, labelDriverKey},
		{&k.executorKey, labelExecutorKey},
		{&k.driverFinished, labelDriverFinished},
		{&k.executorFinished, labelExecutorFinished},
	} {
		if *out.key, err = hkdf.Expand(sha256.New, prk, out.label, keySize); err != nil {
			return sessionKeys{}, err
		}
	}
	return k, nil
}

// transcript is everything sent before the proofs, in a fixed order.
func transcript(executor, driver *hello) []byte {
	t := make([]byte, 0, 2*helloSize)
	return append(append(t, executor[:]...), driver[:]...)
}

// finished is one side's proof that it knows the secret: a MAC, under a key
// only the secret yields, over the transcript of this very connection, so a
// proof recorded from another connection is worthless.
func finished(key, transcript []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(transcript)
	return m.Sum(nil)
}
