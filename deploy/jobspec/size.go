package jobspec

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes of Spark's JavaUtils.byteStringAs, in bytes:
// the same sizes spindle.executor.memory takes.
var sizeUnits = map[string]int64{
	"b": 1,
	"k": 1 << 10, "kb": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40,
	"p": 1 << 50, "pb": 1 << 50,
}

const mib = 1 << 20

// parseSizeMiB reads a size as deploy/config reads spindle.*.memory: a
// whole number and an optional unit, a bare number being MiB; a size that
// is not a whole number of MiB is an error rather than rounded down.
func parseSizeMiB(s string) (int64, error) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	digits, suffix := s[:i], strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(s, "-"):
		return 0, errors.New("a size cannot be negative")
	case digits == "":
		return 0, errors.New("not a size: want a whole number and a unit (k, m, g, t), e.g. 4g")
	case strings.HasPrefix(suffix, "."):
		return 0, errors.New("fractional sizes are not supported: use a smaller unit, e.g. 1536m for 1.5g")
	}
	bytes := int64(mib)
	if suffix != "" {
		u, ok := sizeUnits[suffix]
		if !ok {
			return 0, fmt.Errorf("unknown size unit %q: use b, k, m, g, t, p (or kb, mb, gb, tb, pb)", clip(suffix))
		}
		bytes = u
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/bytes {
		return 0, errors.New("too large")
	}
	if n*bytes%mib != 0 {
		return 0, errors.New("not a whole number of MiB")
	}
	return n * bytes / mib, nil
}
