package credentials

import (
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
)

// vintVectors are Hadoop 3.5.0's WritableUtils.writeVLong output for each
// value, taken from a Java program run against Hadoop's jars.
var vintVectors = []struct {
	v   int64
	hex string
}{
	{0, "00"},
	{-1, "ff"},
	{-112, "90"},
	{-113, "8770"},
	{127, "7f"},
	{128, "8f80"},
	{255, "8fff"},
	{256, "8e0100"},
	{65535, "8effff"},
	{65536, "8d010000"},
	{16777215, "8dffffff"},
	{16777216, "8c01000000"},
	{math.MaxInt32, "8c7fffffff"},
	{math.MinInt32, "847fffffff"},
	{-114, "8771"},
	{-128, "877f"},
	{-129, "8780"},
	{-256, "87ff"},
	{-257, "860100"},
	{-65536, "86ffff"},
	{-65537, "85010000"},
	{4294967295, "8cffffffff"},
	{4294967296, "8b0100000000"},
	{math.MaxInt64, "887fffffffffffffff"},
	{math.MinInt64, "807fffffffffffffff"},
}

func TestVLongMatchesHadoop(t *testing.T) {
	for _, tc := range vintVectors {
		if got := hex.EncodeToString(appendVLong(nil, tc.v)); got != tc.hex {
			t.Errorf("appendVLong(%d) = %s, Hadoop writes %s", tc.v, got, tc.hex)
		}
		b, _ := hex.DecodeString(tc.hex)
		c := &cursor{buf: b}
		got, err := c.vlong("value")
		if err != nil || got != tc.v || c.off != len(b) {
			t.Errorf("vlong(%s) = %d, %v after %d bytes; want %d after %d", tc.hex, got, err, c.off, tc.v, len(b))
		}
	}
}

// Hadoop's reader accepts a value spelled with more bytes than needed.
func TestVLongAcceptsNonMinimal(t *testing.T) {
	c := &cursor{buf: []byte{0x8e, 0x00, 0x05}} // 5 in two bytes
	if got, err := c.vlong("value"); err != nil || got != 5 {
		t.Errorf("vlong = %d, %v; want 5", got, err)
	}
}

func TestNonNegativeErrors(t *testing.T) {
	for _, tc := range []struct {
		hex, want string
	}{
		{"", "length at offset 0: the file ends before it"},
		{"8c7fff", "length at offset 0: a 5-byte vint, but only 3 bytes are left"},
		{"ff", "length -1 at offset 0 is negative"},
		{"847fffffff", "length -2147483648 at offset 0 is negative"},
		{"8cffffffff", "length 4294967295 at offset 0 does not fit in a 32-bit int"},
		{"807fffffffffffffff", "length -9223372036854775808 at offset 0 does not fit in a 32-bit int"},
	} {
		b, _ := hex.DecodeString(tc.hex)
		c := &cursor{buf: b}
		_, _, err := c.nonNegative("length")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("nonNegative(%q): %v, want %q", tc.hex, err, tc.want)
		}
		if _, ok := errors.AsType[*FormatError](err); !ok {
			t.Errorf("nonNegative(%q): %T, want *FormatError", tc.hex, err)
		}
	}
}

func TestBytesChecksWhatIsLeft(t *testing.T) {
	c := &cursor{buf: []byte{0x8f, 0xc8, 1, 2, 3}, ctx: `token 1 ("a")`}
	_, err := c.bytes("identifier")
	want := `credentials: token 1 ("a"): identifier length 200 at offset 0 exceeds the 3 bytes left`
	if err == nil || err.Error() != want {
		t.Errorf("bytes: %v, want %s", err, want)
	}
}
