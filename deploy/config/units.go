package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// timeUnits are the suffixes of Spark's JavaUtils.timeStringAs.
var timeUnits = map[string]time.Duration{
	"us":  time.Microsecond,
	"ms":  time.Millisecond,
	"s":   time.Second,
	"m":   time.Minute,
	"min": time.Minute,
	"h":   time.Hour,
	"d":   24 * time.Hour,
}

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

// splitNumber splits s, already trimmed, into its leading decimal digits and
// the lower-cased rest, as Spark's ([0-9]+)([a-z]+)? pattern does.
func splitNumber(s string) (digits, unit string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], strings.ToLower(s[i:])
}

// parseDuration reads Spark's time strings: a whole number and an optional
// unit; a bare number is in unit, the key's own.
func parseDuration(s string, unit time.Duration) (time.Duration, error) {
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative durations are not allowed")
	}
	digits, suffix := splitNumber(s)
	if digits == "" {
		return 0, errors.New("not a duration: want a whole number and a unit (us, ms, s, m or min, h, d), e.g. 30s")
	}
	if suffix != "" {
		u, ok := timeUnits[suffix]
		if !ok {
			return 0, fmt.Errorf("unknown time unit %q: use us, ms, s, m or min, h, d", suffix)
		}
		unit = u
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/int64(unit) {
		return 0, errors.New("duration too long")
	}
	return time.Duration(n) * unit, nil
}

// parseSizeMiB reads Spark's byte strings (binary multiples) into MiB; a
// bare number is MiB, as for Spark's memory keys. Spark rounds a size that
// is not a whole number of MiB down; here it is an error, since a silently
// smaller container is worse than a clear message.
func parseSizeMiB(s string) (int64, error) {
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative sizes are not allowed")
	}
	digits, suffix := splitNumber(s)
	if digits == "" {
		return 0, errors.New("not a size: want a whole number and a unit (k, m, g, t), e.g. 4g")
	}
	if strings.HasPrefix(suffix, ".") {
		return 0, errors.New("fractional sizes are not supported: use a smaller unit, e.g. 1536m for 1.5g")
	}
	bytes := int64(mib)
	if suffix != "" {
		u, ok := sizeUnits[suffix]
		if !ok {
			return 0, fmt.Errorf("unknown size unit %q: use b, k, m, g, t, p (or kb, mb, gb, tb, pb)", suffix)
		}
		bytes = u
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/bytes {
		return 0, errors.New("size too large")
	}
	if n*bytes%mib != 0 {
		return 0, fmt.Errorf("%s is not a whole number of MiB", s)
	}
	return n * bytes / mib, nil
}
