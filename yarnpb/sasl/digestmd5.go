package sasl

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
)

// DigestConfig configures a DIGEST-MD5 client.
type DigestConfig struct {
	// Username and Password authenticate the client. For a Hadoop token
	// they are the base64 of the token's identifier and password: see
	// TokenConfig.
	Username, Password string
	// Protocol and ServerID make the digest-uri, Protocol + "/" + ServerID.
	// Hadoop's TOKEN authentication uses "" and "default" (as its NEGOTIATE
	// says), giving "/default".
	Protocol, ServerID string
	// QOPs are the qualities of protection the client accepts, most wanted
	// first; the first one the server also offers is used. Empty means
	// Auth only, as in Hadoop's default hadoop.rpc.protection and the
	// JDK's default.
	QOPs []QOP
	// Ciphers are the ciphers the client accepts for auth-conf, most wanted
	// first. Empty means all five in the JDK client's order: 3des, rc4,
	// des, rc4-56, rc4-40.
	Ciphers []Cipher
	// Rand is the source of the client nonce; nil means crypto/rand. Tests
	// inject a fixed one.
	Rand io.Reader
}

// TokenConfig is the configuration for a Hadoop delegation, AMRM or NM
// token (Hadoop's TOKEN auth): username and password are the standard
// base64 (with padding) of the token's identifier and password, and the
// digest-uri is "/default". QOPs is left empty (Auth only) for the caller
// to set from hadoop.rpc.protection.
func TokenConfig(identifier, password []byte) DigestConfig {
	return DigestConfig{
		Username: base64.StdEncoding.EncodeToString(identifier),
		Password: base64.StdEncoding.EncodeToString(password),
		ServerID: "default",
	}
}

// cnonceLen is the client nonce's random bytes before base64, the JDK's
// size: 240 bits, 40 characters on the wire.
const cnonceLen = 30

// clientMaxbuf is the maxbuf the client announces: the RFC's default, as
// the JDK client announces. Wrapped packets Hadoop's server sends may be
// larger (it wraps a whole RPC response at once) and are accepted:
// the RPC framing, not this layer, bounds what is read.
const clientMaxbuf = defaultMaxbuf

// NewDigestMD5 starts a DIGEST-MD5 client exchange (RFC 2831) as Hadoop
// speaks it: the server's challenge comes first, the client answers, the
// server proves with rspauth that it knows the password too, and the
// exchange is Complete only once that proof checks. Configuration errors
// surface from the first Step.
func NewDigestMD5(cfg DigestConfig) Mechanism {
	return &digestMD5{cfg: cfg}
}

// The steps of the exchange.
const (
	awaitChallenge = iota // next: the digest-challenge
	awaitRspauth          // next: the server's response-auth
	complete
	failed
)

type digestMD5 struct {
	cfg   DigestConfig
	state int
	err   error
	// Set by the challenge step for the rspauth step.
	rspauth string
	ha1     [md5.Size]byte
	qop     QOP
	cipher  Cipher
	maxbuf  int
	layer   Layer
}

func (m *digestMD5) Name() string { return "DIGEST-MD5" }

func (m *digestMD5) Complete() bool { return m.state == complete }

func (m *digestMD5) Layer() Layer { return m.layer }

// Step answers the digest-challenge, then checks the response-auth and
// returns no response. DIGEST-MD5 has no initial response: called with no
// challenge first (a server that did not put one in its NEGOTIATE), it
// returns no response and waits for the challenge, as Hadoop's Java client
// does. An error ends the exchange: later Steps return it again.
func (m *digestMD5) Step(challenge []byte) ([]byte, error) {
	var resp []byte
	var err error
	switch m.state {
	case awaitChallenge:
		if len(challenge) == 0 {
			return nil, nil
		}
		resp, err = m.respond(challenge)
	case awaitRspauth:
		err = m.verify(challenge)
	case complete:
		// Not a failure of the exchange, which stays complete.
		return nil, errors.New("sasl: DIGEST-MD5: Step after the exchange completed")
	case failed:
		return nil, m.err
	}
	if err != nil {
		m.state, m.err = failed, err
		return nil, err
	}
	m.state++
	return resp, nil
}

// respond reads the digest-challenge, chooses qop and cipher, and builds
// the digest-response.
func (m *digestMD5) respond(b []byte) ([]byte, error) {
	qops, ciphers, err := m.allowed()
	if err != nil {
		return nil, err
	}
	c, err := parseChallenge(b)
	if err != nil {
		return nil, err
	}
	if m.qop, err = choose("qop", qops, c.qops); err != nil {
		return nil, err
	}
	if m.qop == AuthConf {
		if m.cipher, err = choose("cipher", ciphers, c.ciphers); err != nil {
			return nil, err
		}
		if (m.cipher == CipherDES || m.cipher == Cipher3DES) && c.maxbuf <= 32 {
			return nil, fmt.Errorf("%w: maxbuf %d, %s needs more than 32", ErrChallenge, c.maxbuf, m.cipher)
		}
	}
	m.maxbuf = c.maxbuf

	// The first realm offered, as the JDK client takes by default; none
	// offered means the empty realm.
	var realm string
	if len(c.realms) > 0 {
		realm = c.realms[0]
	}
	user, err := wireBytes("username", m.cfg.Username, c.utf8)
	if err != nil {
		return nil, err
	}
	pass, err := wireBytes("password", m.cfg.Password, c.utf8)
	if err != nil {
		return nil, err
	}
	cnonce, err := newCnonce(m.cfg.Rand)
	if err != nil {
		return nil, err
	}
	in := digestInput{
		username:  hashBytes(user, c.utf8),
		realm:     hashBytes(realm, c.utf8),
		password:  hashBytes(pass, c.utf8),
		nonce:     c.nonce,
		cnonce:    cnonce,
		qop:       m.qop,
		digestURI: m.cfg.Protocol + "/" + m.cfg.ServerID,
	}
	m.ha1 = in.sessionKey()
	m.rspauth = in.value(m.ha1, "")
	f := responseFields{
		utf8:      c.utf8,
		username:  user,
		realm:     realm,
		nonce:     c.nonce,
		cnonce:    cnonce,
		digestURI: in.digestURI,
		maxbuf:    clientMaxbuf,
		response:  in.value(m.ha1, "AUTHENTICATE"),
		qop:       m.qop,
		cipher:    m.cipher,
	}
	return f.encode()
}

// verify checks the server's rspauth and sets up the security layer.
func (m *digestMD5) verify(b []byte) error {
	got, err := parseRspauth(b)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(m.rspauth)) != 1 {
		return fmt.Errorf("%w: rspauth does not match (wrong password on the server's side, or not the server)", ErrServerProof)
	}
	if m.qop == Auth {
		return nil
	}
	l, err := newSecurityLayer(m.ha1, m.qop, m.cipher, m.maxbuf)
	if err != nil {
		return err
	}
	m.layer = l
	return nil
}

// allowed validates the configured QOPs and Ciphers, applying defaults.
func (m *digestMD5) allowed() ([]QOP, []Cipher, error) {
	qops, ciphers := m.cfg.QOPs, m.cfg.Ciphers
	if len(qops) == 0 {
		qops = []QOP{Auth}
	}
	if len(ciphers) == 0 {
		ciphers = defaultCiphers
	}
	for _, q := range qops {
		if q != Auth && q != AuthInt && q != AuthConf {
			return nil, nil, fmt.Errorf("sasl: DIGEST-MD5: config: unknown qop %q (want auth, auth-int or auth-conf)", q)
		}
	}
	for _, c := range ciphers {
		if !c.known() {
			return nil, nil, fmt.Errorf("sasl: DIGEST-MD5: config: unknown cipher %q (want one of %q)", c, defaultCiphers)
		}
	}
	return qops, ciphers, nil
}

// choose returns the first of the client's allowed values that the server
// offers.
func choose[T ~string](what string, allowed, offered []T) (T, error) {
	for _, a := range allowed {
		if slices.Contains(offered, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("%w: server offers %s %q, client allows %q", ErrNegotiation, what, offered, allowed)
}

// newCnonce makes a client nonce: random bytes in base64, which has no
// character a quoted string must escape.
func newCnonce(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	b := make([]byte, cnonceLen)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("sasl: DIGEST-MD5: reading the client nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}
