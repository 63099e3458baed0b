package sasl

import (
	"fmt"
	"strings"
)

// directive is one name=value pair of a DIGEST-MD5 server message, its
// name lowered (RFC 2831 names are case-insensitive) and its value with
// quotes and escapes removed.
type directive struct {
	name, value string
}

// parseDirectives splits a server message into directives. The grammar is
// RFC 2831 §7.1's #rule:
//
//	message   = [directive] *( LWS? "," LWS? [directive] )
//	directive = token LWS? "=" LWS? ( token | quoted-string )
//
// Empty elements (",,") are allowed, as #rule allows them. Unquoted values
// run to the next comma or white space, as the JDK reads them. Every error
// names the directive and the byte offset where parsing stopped.
func parseDirectives(b []byte) ([]directive, error) {
	var out []directive
	i := 0
	for {
		i = skipSeparators(b, i)
		if i == len(b) {
			return out, nil
		}
		start := i
		for i < len(b) && isTokenByte(b[i]) {
			i++
		}
		if i == start {
			return nil, fmt.Errorf("expected a directive name at offset %d, found %q", i, b[i])
		}
		name := strings.ToLower(string(b[start:i]))
		i = skipLWS(b, i)
		if i == len(b) || b[i] != '=' {
			return nil, fmt.Errorf("directive %q: expected '=' at offset %d", name, i)
		}
		i = skipLWS(b, i+1)
		var value string
		var err error
		if i < len(b) && b[i] == '"' {
			value, i, err = readQuoted(b, i+1)
			if err != nil {
				return nil, fmt.Errorf("directive %q: %w", name, err)
			}
		} else {
			start := i
			for i < len(b) && b[i] != ',' && !isLWS(b[i]) {
				if b[i] == '"' || isCTL(b[i]) {
					return nil, fmt.Errorf("directive %q: byte %q not allowed in an unquoted value at offset %d", name, b[i], i)
				}
				i++
			}
			if i == start {
				return nil, fmt.Errorf("directive %q: missing value at offset %d", name, i)
			}
			value = string(b[start:i])
		}
		i = skipLWS(b, i)
		if i < len(b) && b[i] != ',' {
			return nil, fmt.Errorf("directive %q: expected ',' after the value at offset %d, found %q", name, i, b[i])
		}
		out = append(out, directive{name: name, value: value})
	}
}

// readQuoted reads a quoted-string's body from just after its opening quote
// and returns the unescaped value and the offset after the closing quote.
// A backslash quotes the next byte (RFC 2831's quoted-pair).
func readQuoted(b []byte, i int) (string, int, error) {
	var v []byte
	open := i - 1
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			return string(v), i + 1, nil
		case '\\':
			if i+1 == len(b) {
				return "", 0, fmt.Errorf("quoted string opened at offset %d ends in a lone backslash", open)
			}
			v = append(v, b[i+1])
			i += 2
		default:
			v = append(v, c)
			i++
		}
	}
	return "", 0, fmt.Errorf("quoted string opened at offset %d is not closed", open)
}

// splitList splits a quoted list value (qop-options, cipher-opts: 1#value)
// into its elements, dropping empty ones.
func splitList(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool {
		return r == ',' || r < 0x80 && isLWS(byte(r))
	})
}

func skipSeparators(b []byte, i int) int {
	for i < len(b) && (b[i] == ',' || isLWS(b[i])) {
		i++
	}
	return i
}

func skipLWS(b []byte, i int) int {
	for i < len(b) && isLWS(b[i]) {
		i++
	}
	return i
}

func isLWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isCTL(c byte) bool { return c < 0x20 || c == 0x7f }

// isTokenByte reports whether c may appear in an RFC 2616 token: any
// US-ASCII character except controls and separators.
func isTokenByte(c byte) bool {
	if c >= 0x80 || isCTL(c) {
		return false
	}
	return !strings.ContainsRune("()<>@,;:\\\"/[]?={} \t", rune(c))
}

// quote writes v as a quoted-string, escaping the two bytes RFC 2831 says
// must be: the quote and the backslash.
func quote(v string) string {
	var sb strings.Builder
	sb.Grow(len(v) + 2)
	sb.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(v[i])
	}
	sb.WriteByte('"')
	return sb.String()
}
