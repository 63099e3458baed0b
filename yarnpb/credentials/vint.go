package credentials

import (
	"fmt"
	"math"
	"math/bits"
)

// This file holds Hadoop's Writable primitives: WritableUtils vints, and the
// vint-length-prefixed byte strings that Text and Token.write use. Decoding
// goes through a cursor over the whole file in memory, so that every length
// can be checked against the bytes actually left before it is trusted.

// cursor reads a credentials file held in memory.
type cursor struct {
	buf []byte
	off int
	// ctx names the entry being read (`token 2 ("amrm")`) to prefix errors.
	ctx string
}

func (c *cursor) left() int { return len(c.buf) - c.off }

// fail builds a FormatError at offset at, prefixed with the current entry.
func (c *cursor) fail(at int, format string, args ...any) error {
	detail := fmt.Sprintf(format, args...)
	if c.ctx != "" {
		detail = c.ctx + ": " + detail
	}
	return &FormatError{Offset: at, Detail: detail}
}

// vintSize is the encoded size, first byte included, that a vint's first
// byte announces (WritableUtils.decodeVIntSize): 1 to 9.
func vintSize(first int8) int {
	switch {
	case first >= -112:
		return 1
	case first < -120:
		return -119 - int(first)
	default:
		return -111 - int(first)
	}
}

// vintNegative says whether a vint's first byte announces a negative value.
func vintNegative(first int8) bool {
	return first < -120 || (first >= -112 && first < 0)
}

// vlong reads one vint of up to 64 bits (WritableUtils.readVLong). Like
// Hadoop it accepts non-minimal encodings; the value is what matters.
func (c *cursor) vlong(what string) (int64, error) {
	at := c.off
	if c.left() == 0 {
		return 0, c.fail(at, "%s at offset %d: the file ends before it", what, at)
	}
	first := int8(c.buf[at])
	n := vintSize(first)
	if n > c.left() {
		return 0, c.fail(at, "%s at offset %d: a %d-byte vint, but only %d bytes are left", what, at, n, c.left())
	}
	c.off += n
	if n == 1 {
		return int64(first), nil
	}
	var v uint64
	for _, b := range c.buf[at+1 : at+n] {
		v = v<<8 | uint64(b)
	}
	if vintNegative(first) {
		v = ^v
	}
	return int64(v), nil
}

// nonNegative reads a vint that Hadoop reads with readVInt (so it must fit
// an int32) and uses as a size (so it must not be negative). It returns the
// value and the offset it started at.
func (c *cursor) nonNegative(what string) (n, at int, err error) {
	at = c.off
	v, err := c.vlong(what)
	if err != nil {
		return 0, at, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, at, c.fail(at, "%s %d at offset %d does not fit in a 32-bit int", what, v, at)
	}
	if v < 0 {
		return 0, at, c.fail(at, "%s %d at offset %d is negative", what, v, at)
	}
	return int(v), at, nil
}

// count reads how many entries follow, each at least minSize bytes long, and
// refuses a count the bytes left cannot hold: the caller may loop that many
// times, so a forged count must not make it spin or allocate.
func (c *cursor) count(what string, minSize int) (int, error) {
	n, at, err := c.nonNegative(what)
	if err != nil {
		return 0, err
	}
	if most := c.left() / minSize; n > most {
		return 0, c.fail(at, "%s %d at offset %d exceeds the %d that the %d bytes left can hold", what, n, at, most, c.left())
	}
	return n, nil
}

// bytes reads a vint length and that many bytes, as Token.readFields reads
// an identifier or password and Credentials.readFields a secret. The result
// is a copy (never nil), so it outlives the file buffer.
func (c *cursor) bytes(what string) ([]byte, error) {
	n, at, err := c.nonNegative(what + " length")
	if err != nil {
		return nil, err
	}
	if n > c.left() {
		return nil, c.fail(at, "%s length %d at offset %d exceeds the %d bytes left", what, n, at, c.left())
	}
	b := make([]byte, n)
	copy(b, c.buf[c.off:])
	c.off += n
	return b, nil
}

// text reads a Hadoop Text: a vint length and that many bytes. Hadoop does
// not validate the UTF-8 on reading, and neither does this.
func (c *cursor) text(what string) (string, error) {
	b, err := c.bytes(what)
	return string(b), err
}

// appendVLong appends v as a WritableUtils vint (writeVLong): one byte for
// -112..127, else a length byte and the big-endian bytes without leading
// zeros, of v or, when v is negative, of its one's complement.
func appendVLong(b []byte, v int64) []byte {
	if v >= -112 && v <= 127 {
		return append(b, byte(int8(v)))
	}
	first := -112
	if v < 0 {
		v = ^v
		first = -120
	}
	n := (bits.Len64(uint64(v)) + 7) / 8
	b = append(b, byte(int8(first-n)))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(uint64(v)>>(8*i)))
	}
	return b
}

// appendBytes appends p with its vint length, the inverse of cursor.bytes.
func appendBytes(b, p []byte) []byte {
	return append(appendVLong(b, int64(len(p))), p...)
}

// appendText appends s as a Hadoop Text, the inverse of cursor.text.
func appendText(b []byte, s string) []byte {
	return append(appendVLong(b, int64(len(s))), s...)
}
