// Package units reads sizes as Spark writes them, for the configuration
// layer and job specs alike.
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes of Spark's JavaUtils.byteStringAs, in bytes.
var sizeUnits = map[string]int64{
	"b": 1,
	"k": 1 << 10, "kb": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40,
	"p": 1 << 50, "pb": 1 << 50,
}

const mib = 1 << 20

// SplitNumber splits a leading run of decimal digits from the rest, which
// it lower-cases: "512M" is ("512", "m").
func SplitNumber(s string) (digits, unit string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], strings.ToLower(s[i:])
}

// ParseSizeMiB reads Spark's byte strings (binary multiples) into MiB; a
// bare number is MiB, as for Spark's memory keys. Spark rounds a size that
// is not a whole number of MiB down; here it is an error, since a silently
// smaller container is worse than a clear message.
func ParseSizeMiB(s string) (int64, error) {
	n, err := parseSize(s, mib, "a whole number and a unit (k, m, g, t), e.g. 4g")
	if err != nil {
		return 0, err
	}
	if n%mib != 0 {
		return 0, errors.New("not a whole number of MiB")
	}
	return n / mib, nil
}

// ParseBytes reads Spark's byte strings (binary multiples) into bytes; a
// bare number is bytes, as for Spark's byte-count keys.
func ParseBytes(s string) (int64, error) {
	return parseSize(s, 1, "a whole number of bytes, or one with a unit (k, m, g, t), e.g. 64m")
}

// parseSize reads a size in bytes; a bare number counts bare bytes. want
// says what a size looks like, for the error when s is none.
func parseSize(s string, bare int64, want string) (int64, error) {
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative sizes are not allowed")
	}
	digits, suffix := SplitNumber(s)
	if digits == "" {
		return 0, errors.New("not a size: want " + want)
	}
	if strings.HasPrefix(suffix, ".") {
		return 0, errors.New("fractional sizes are not supported: use a smaller unit, e.g. 1536m for 1.5g")
	}
	unit := bare
	if suffix != "" {
		u, ok := sizeUnits[suffix]
		if !ok {
			return 0, fmt.Errorf("unknown size unit %q: use b, k, m, g, t, p (or kb, mb, gb, tb, pb)", clip(suffix))
		}
		unit = u
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/unit {
		return 0, errors.New("size too large")
	}
	return n * unit, nil
}

// clip keeps a hostile suffix from flooding an error message.
func clip(s string) string {
	if len(s) > 20 {
		return strings.ToValidUTF8(s[:20], "") + "..."
	}
	return s
}
