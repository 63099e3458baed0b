package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/internal/units"
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

// parseDuration reads Spark's time strings: a whole number and an optional
// unit; a bare number is in unit, the key's own.
func parseDuration(s string, unit time.Duration) (time.Duration, error) {
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("negative durations are not allowed")
	}
	digits, suffix := units.SplitNumber(s)
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
