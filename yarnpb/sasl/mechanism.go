package sasl

// Mechanism is one SASL client exchange in progress. The IPC client feeds it
// the server's challenges and sends back its responses until Complete.
type Mechanism interface {
	// Name is the SASL mechanism name, as the server lists it
	// (e.g. "DIGEST-MD5").
	Name() string
	// Step consumes the server's challenge and returns the response to send.
	// A mechanism that speaks first is called with a nil challenge.
	Step(challenge []byte) (response []byte, err error)
	// Complete reports whether the exchange has finished successfully,
	// including the client's check of the server's proof where the
	// mechanism has one.
	Complete() bool
	// Layer is the security layer negotiated, or nil when the quality of
	// protection is authentication only: then packets travel unwrapped.
	// Valid once Complete.
	Layer() Layer
}

// Layer protects packets after authentication: integrity (auth-int) or
// integrity and confidentiality (auth-conf).
type Layer interface {
	// Wrap protects one outgoing packet.
	Wrap(p []byte) ([]byte, error)
	// Unwrap checks (and decrypts) one incoming packet. A packet that fails
	// its check is an error, never returned as data.
	Unwrap(p []byte) ([]byte, error)
}

// SendLimiter is implemented by a Layer whose peer bounds the packets it
// receives (DIGEST-MD5's maxbuf). A caller honours the bound by splitting
// outgoing data into messages of at most MaxSend bytes, one Wrap each, as
// Hadoop's Java client does; the receiver joins the unwrapped messages
// back into one stream.
type SendLimiter interface {
	MaxSend() int
}

// QOP is a SASL quality of protection.
type QOP string

// The qualities of protection, as Hadoop's hadoop.rpc.protection names them:
// authentication, integrity, privacy.
const (
	Auth     QOP = "auth"
	AuthInt  QOP = "auth-int"
	AuthConf QOP = "auth-conf"
)
