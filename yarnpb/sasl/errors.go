package sasl

import "errors"

// Errors a DIGEST-MD5 exchange or its security layer returns, wrapped with
// the detail; test with errors.Is. None of them is worth retrying on the
// same connection.
var (
	// ErrChallenge: the server's digest-challenge is malformed or asks for
	// something DIGEST-MD5 does not allow.
	ErrChallenge = errors.New("sasl: DIGEST-MD5: malformed challenge")
	// ErrNegotiation: client and server share no quality of protection, or
	// no cipher for auth-conf. A configuration mismatch
	// (hadoop.rpc.protection), not a network fault.
	ErrNegotiation = errors.New("sasl: DIGEST-MD5: no protection acceptable to both client and server")
	// ErrServerProof: the server did not prove it knows the password: its
	// rspauth is missing or wrong. The peer may be an impostor.
	ErrServerProof = errors.New("sasl: DIGEST-MD5: server authentication failed")
	// ErrPacket: a wrapped packet failed its checks (short, bad MAC, bad
	// padding, replayed or reordered). The connection must be dropped.
	ErrPacket = errors.New("sasl: DIGEST-MD5: wrapped packet rejected")
)
