package sasl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits from RFC 2831 §2.1.1 and §2.1.2.
const (
	maxChallengeLen = 2048     // a digest-challenge MUST be shorter
	maxResponseLen  = 4096     // a digest-response MUST be shorter
	defaultMaxbuf   = 65536    // maxbuf when the peer names none
	minMaxbuf       = 17       // maxbuf MUST be bigger than 16 ...
	maxMaxbuf       = 16777215 // ... and at most 2**24-1
)

// challenge is what the client takes from the server's digest-challenge
// (RFC 2831 §2.1.1).
type challenge struct {
	// realms are the realms the server offers, in its charset, in order.
	// The RFC allows several and none.
	realms []string
	nonce  string
	// qops and ciphers are the server's lists as sent, unknown names
	// included: only names the client knows can ever be chosen from them,
	// and the unknown ones show in error messages as the server sent them.
	qops    []QOP
	ciphers []Cipher
	// maxbuf is the largest wrapped packet the server will receive.
	maxbuf int
	// utf8 is true when the server sent charset=utf-8: names and passwords
	// then travel in UTF-8 instead of ISO 8859-1.
	utf8 bool
}

// parseChallenge reads a digest-challenge. Unknown directives are ignored,
// as the RFC requires; known ones other than realm may appear at most once.
func parseChallenge(b []byte) (*challenge, error) {
	if len(b) >= maxChallengeLen {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrChallenge, len(b), maxChallengeLen-1)
	}
	ds, err := parseDirectives(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrChallenge, err)
	}
	c := &challenge{qops: []QOP{Auth}, maxbuf: defaultMaxbuf}
	seen := make(map[string]bool)
	for _, d := range ds {
		switch d.name {
		case "realm":
			c.realms = append(c.realms, d.value)
			continue
		case "nonce", "qop", "cipher", "maxbuf", "charset", "algorithm", "stale":
			if seen[d.name] {
				return nil, fmt.Errorf("%w: directive %q appears more than once", ErrChallenge, d.name)
			}
			seen[d.name] = true
		default:
			continue // RFC 2831 §2.1.1: unrecognized directives MUST be ignored
		}
		switch d.name {
		case "nonce":
			if d.value == "" {
				return nil, fmt.Errorf("%w: nonce is empty", ErrChallenge)
			}
			c.nonce = d.value
		case "qop":
			c.qops = c.qops[:0]
			for _, q := range splitList(d.value) {
				c.qops = append(c.qops, QOP(q))
			}
		case "cipher":
			for _, n := range splitList(d.value) {
				c.ciphers = append(c.ciphers, Cipher(n))
			}
		case "maxbuf":
			if c.maxbuf, err = parseMaxbuf(d.value); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrChallenge, err)
			}
		case "charset":
			if !strings.EqualFold(d.value, "utf-8") {
				return nil, fmt.Errorf("%w: charset %q, only utf-8 is defined", ErrChallenge, d.value)
			}
			c.utf8 = true
		case "algorithm":
			if !strings.EqualFold(d.value, "md5-sess") {
				return nil, fmt.Errorf("%w: algorithm %q, DIGEST-MD5 requires md5-sess", ErrChallenge, d.value)
			}
		case "stale":
			// stale=true asks a client re-authenticating with an old nonce
			// to start over; this client always starts with the nonce it
			// was just given, so there is nothing to act on.
		}
	}
	if c.nonce == "" {
		return nil, fmt.Errorf("%w: nonce directive missing", ErrChallenge)
	}
	if c.utf8 {
		for _, r := range c.realms {
			if !utf8.ValidString(r) {
				return nil, fmt.Errorf("%w: realm %q is not valid UTF-8 though charset=utf-8", ErrChallenge, r)
			}
		}
	}
	if !seen["algorithm"] {
		return nil, fmt.Errorf("%w: algorithm directive missing (want md5-sess)", ErrChallenge)
	}
	return c, nil
}

// parseMaxbuf reads a maxbuf value: decimal digits, within RFC 2831's
// bounds.
func parseMaxbuf(v string) (int, error) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, fmt.Errorf("maxbuf %q is not a decimal number", v)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < minMaxbuf || n > maxMaxbuf {
		return 0, fmt.Errorf("maxbuf %q outside [%d, %d]", v, minMaxbuf, maxMaxbuf)
	}
	return n, nil
}

// parseRspauth reads the server's response-auth message (RFC 2831 §2.1.3)
// and returns the rspauth value.
func parseRspauth(b []byte) (string, error) {
	if len(b) >= maxChallengeLen {
		return "", fmt.Errorf("%w: response-auth of %d bytes, the limit is %d", ErrServerProof, len(b), maxChallengeLen-1)
	}
	ds, err := parseDirectives(b)
	if err != nil {
		return "", fmt.Errorf("%w: malformed response-auth: %v", ErrServerProof, err)
	}
	var rspauth string
	found := false
	for _, d := range ds {
		if d.name != "rspauth" {
			continue
		}
		if found {
			return "", fmt.Errorf("%w: rspauth appears more than once", ErrServerProof)
		}
		rspauth, found = d.value, true
	}
	if !found {
		return "", fmt.Errorf("%w: no rspauth in the server's reply %q", ErrServerProof, truncate(b, 64))
	}
	return rspauth, nil
}

// truncate shortens peer bytes quoted in an error message.
func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
