package sasl

import (
	"strings"
	"testing"
)

// TestRFC2831Example checks the worked example of RFC 2831 §4 (IMAP,
// qop=auth): its response and rspauth values.
func TestRFC2831Example(t *testing.T) {
	in := digestInput{
		username:  []byte("chris"),
		realm:     []byte("elwood.innosoft.com"),
		password:  []byte("secret"),
		nonce:     "OA6MG9tEQGm2hh",
		cnonce:    "OA6MHXh6VqTrRk",
		qop:       Auth,
		digestURI: "imap/elwood.innosoft.com",
	}
	ha1 := in.sessionKey()
	if got, want := in.value(ha1, "AUTHENTICATE"), "d388dad90d4bbd760a152321f2143af7"; got != want {
		t.Errorf("response = %s, want %s", got, want)
	}
	if got, want := in.value(ha1, ""), "ea40f60335c427b5527b84dbabcdfffd"; got != want {
		t.Errorf("rspauth = %s, want %s", got, want)
	}
}

func TestCharsetConversion(t *testing.T) {
	// With charset=utf-8, text that fits ISO 8859-1 is hashed in it ...
	if b := hashBytes("caf\u00e9", true); string(b) != "caf\xe9" {
		t.Errorf("hashBytes(café, utf8) = %q, want ISO 8859-1 bytes", b)
	}
	// ... and text that does not is hashed in UTF-8 ...
	if b := hashBytes("\u65e5\u672c", true); string(b) != "\u65e5\u672c" {
		t.Errorf("hashBytes(日本, utf8) = %q, want UTF-8 bytes", b)
	}
	// ... while without charset=utf-8 the (ISO 8859-1) wire bytes are hashed.
	if b := hashBytes("caf\xe9", false); string(b) != "caf\xe9" {
		t.Errorf("hashBytes(café in ISO 8859-1) = %q, want it unchanged", b)
	}
	// Without charset=utf-8, the wire form is ISO 8859-1 and cannot carry
	// other characters.
	w, err := wireBytes("username", "caf\u00e9", false)
	if err != nil || w != "caf\xe9" {
		t.Errorf("wireBytes(café, latin1) = %q, %v", w, err)
	}
	if _, err := wireBytes("username", "\u65e5", false); err == nil || !strings.Contains(err.Error(), "ISO 8859-1") {
		t.Errorf("wireBytes(日, latin1) error = %v, want one naming ISO 8859-1", err)
	}
	if _, err := wireBytes("password", "\xff", true); err == nil || !strings.Contains(err.Error(), "password") {
		t.Errorf("wireBytes(invalid UTF-8) error = %v, want one naming the password", err)
	}
}

func TestResponseTooLong(t *testing.T) {
	f := responseFields{username: strings.Repeat("u", maxResponseLen), qop: Auth}
	if _, err := f.encode(); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("encode of an oversized response: err = %v, want the limit named", err)
	}
}
