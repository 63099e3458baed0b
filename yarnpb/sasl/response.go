package sasl

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// nonceCount is the nc value: this client uses each nonce once, for the
// initial authentication, never for subsequent authentication.
const nonceCount = "00000001"

// digestInput is everything the response-value of RFC 2831 §2.1.2.1 and
// the server's rspauth are computed from.
type digestInput struct {
	// username, realm and password are the bytes hashed into A1, already
	// converted as §2.1.2.1 requires (see hashBytes).
	username, realm, password []byte
	nonce, cnonce             string
	qop                       QOP
	digestURI                 string
}

// sessionKey is H(A1), where
//
//	A1 = { H( { username-value, ":", realm-value, ":", passwd } ),
//	       ":", nonce-value, ":", cnonce-value }
//
// (no authzid: Hadoop sends none). The security layer's keys derive from it.
func (in *digestInput) sessionKey() [md5.Size]byte {
	inner := md5.New()
	inner.Write(in.username)
	inner.Write([]byte{':'})
	inner.Write(in.realm)
	inner.Write([]byte{':'})
	inner.Write(in.password)
	a1 := inner.Sum(nil)
	a1 = append(a1, ':')
	a1 = append(a1, in.nonce...)
	a1 = append(a1, ':')
	a1 = append(a1, in.cnonce...)
	return md5.Sum(a1)
}

// value computes a response-value: with method "AUTHENTICATE" the client's
// response, with method "" the server's rspauth (§2.1.3).
//
//	A2       = { method, ":", digest-uri-value } plus, for auth-int and
//	           auth-conf, ":00000000000000000000000000000000"
//	response = HEX( KD( HEX(H(A1)), { nonce-value, ":", nc-value, ":",
//	           cnonce-value, ":", qop-value, ":", HEX(H(A2)) }))
//	KD(k, s) = H({k, ":", s})
func (in *digestInput) value(ha1 [md5.Size]byte, method string) string {
	a2 := method + ":" + in.digestURI
	if in.qop == AuthInt || in.qop == AuthConf {
		a2 += ":00000000000000000000000000000000"
	}
	ha2 := md5.Sum([]byte(a2))
	kd := hex.EncodeToString(ha1[:]) + ":" + in.nonce + ":" + nonceCount + ":" +
		in.cnonce + ":" + string(in.qop) + ":" + hex.EncodeToString(ha2[:])
	sum := md5.Sum([]byte(kd))
	return hex.EncodeToString(sum[:])
}

// responseFields are the directives of a digest-response (§2.1.2), in
// the wire's encoding.
type responseFields struct {
	utf8                   bool
	username, realm, nonce string
	cnonce, digestURI      string
	maxbuf                 int
	response               string
	qop                    QOP
	cipher                 Cipher
}

// encode writes the digest-response. The order of directives is the JDK
// client's, so that its transcripts are test vectors byte for byte.
func (f *responseFields) encode() ([]byte, error) {
	var sb strings.Builder
	if f.utf8 {
		sb.WriteString("charset=utf-8,")
	}
	sb.WriteString("username=" + quote(f.username) + ",")
	if f.realm != "" {
		sb.WriteString("realm=" + quote(f.realm) + ",")
	}
	sb.WriteString("nonce=" + quote(f.nonce) + ",nc=" + nonceCount + ",")
	sb.WriteString("cnonce=" + quote(f.cnonce) + ",")
	sb.WriteString("digest-uri=" + quote(f.digestURI) + ",")
	sb.WriteString("maxbuf=" + strconv.Itoa(f.maxbuf) + ",")
	sb.WriteString("response=" + f.response + ",qop=" + string(f.qop))
	if f.cipher != "" {
		sb.WriteString(",cipher=" + quote(string(f.cipher)))
	}
	if sb.Len() >= maxResponseLen {
		return nil, fmt.Errorf("sasl: DIGEST-MD5: digest-response of %d bytes, the limit is %d (username or realm too long?)", sb.Len(), maxResponseLen-1)
	}
	return []byte(sb.String()), nil
}

// wireBytes encodes a client-side string (a Go string, UTF-8) for the wire:
// as UTF-8 when the server sent charset=utf-8, else in ISO 8859-1, the
// RFC's default, which cannot carry every character.
func wireBytes(what, s string, utf8Charset bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("sasl: DIGEST-MD5: %s is not valid UTF-8", what)
	}
	if utf8Charset {
		return s, nil
	}
	b, ok := latin1(s)
	if !ok {
		return "", fmt.Errorf("sasl: DIGEST-MD5: %s has characters outside ISO 8859-1 and the server did not offer charset=utf-8", what)
	}
	return string(b), nil
}

// hashBytes gives the bytes of a wire string that go into A1. RFC 2831
// §2.1.2.1: with charset=utf-8, a username, realm or password whose
// characters all lie in ISO 8859-1 is hashed in ISO 8859-1; otherwise in
// UTF-8. Without charset=utf-8 the wire bytes are already ISO 8859-1.
func hashBytes(wire string, utf8Charset bool) []byte {
	if utf8Charset {
		if b, ok := latin1(wire); ok {
			return b
		}
	}
	return []byte(wire)
}

// latin1 converts a UTF-8 string to ISO 8859-1, reporting whether every
// character fits.
func latin1(s string) ([]byte, bool) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}
