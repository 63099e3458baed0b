package hadoopconf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ValueError is a value that does not read as what its key needs. It names
// the key, the value and where the value was set.
type ValueError struct {
	Key   string
	Value string
	Pos   Pos
	Msg   string
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("hadoopconf: %s = %q (%s): %s", e.Key, e.Value, e.Pos, e.Msg)
}

func (c *Conf) valueError(key, value, msg string) error {
	pos, _ := c.Source(key)
	return &ValueError{Key: canonicalKey(key), Value: value, Pos: pos, Msg: msg}
}

// GetInt returns key's value as an integer, or def when the key has no
// value. As Hadoop's getInt, it trims the value and reads 0x-prefixed
// hexadecimal; unlike it, the range is Go's int, not Java's.
func (c *Conf) GetInt(key string, def int) (int, error) {
	v, ok, err := c.Lookup(key)
	if err != nil || !ok {
		return def, err
	}
	s := strings.TrimSpace(v)
	digits, base := s, 10
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if h, ok := strings.CutPrefix(digits, "0x"); ok {
		digits, base = h, 16
	} else if h, ok := strings.CutPrefix(digits, "0X"); ok {
		digits, base = h, 16
	}
	if neg {
		digits = "-" + digits
	}
	n, perr := strconv.ParseInt(digits, base, strconv.IntSize)
	if perr != nil {
		return def, c.valueError(key, v, "not an integer")
	}
	return int(n), nil
}

// GetBool returns key's value as a boolean: "true" or "false" in any case,
// trimmed. A key with no value, or an empty one, gives def, as in Hadoop.
// Hadoop also reads any other value as def; here that is an error, since a
// misspelt "ture" would otherwise switch a feature silently.
func (c *Conf) GetBool(key string, def bool) (bool, error) {
	v, ok, err := c.Lookup(key)
	if err != nil || !ok {
		return def, err
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, c.valueError(key, v, "not a boolean (true or false)")
}

// durationUnits are Hadoop's time suffixes, in the order it tries them:
// "ms" must be tried before "s", and "ns"/"us" before "s" too.
var durationUnits = []struct {
	suffix string
	unit   time.Duration
}{
	{"ns", time.Nanosecond},
	{"us", time.Microsecond},
	{"ms", time.Millisecond},
	{"s", time.Second},
	{"m", time.Minute},
	{"h", time.Hour},
	{"d", 24 * time.Hour},
}

// GetDuration returns key's value as a duration, as Hadoop's
// getTimeDuration reads it: an integer with an optional suffix ns, us, ms,
// s, m, h or d (any case), a plain number counting in unit (Hadoop's
// "assuming" unit, e.g. time.Millisecond for a key named ...-ms). A key
// with no value gives def.
func (c *Conf) GetDuration(key string, def, unit time.Duration) (time.Duration, error) {
	v, ok, err := c.Lookup(key)
	if err != nil || !ok {
		return def, err
	}
	s := strings.ToLower(strings.TrimSpace(v))
	for _, u := range durationUnits {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			s, unit = num, u.unit
			break
		}
	}
	if unit <= 0 {
		return def, c.valueError(key, v, fmt.Sprintf("no unit, and the default unit %v is not positive", unit))
	}
	n, perr := strconv.ParseInt(s, 10, 64)
	if perr != nil {
		return def, c.valueError(key, v, "not a duration (an integer with ns, us, ms, s, m, h or d)")
	}
	if n > math.MaxInt64/int64(unit) || n < math.MinInt64/int64(unit) {
		return def, c.valueError(key, v, "duration out of range")
	}
	return time.Duration(n) * unit, nil
}

// GetStrings returns key's value split at commas and line breaks, each
// part trimmed, as Hadoop's getTrimmedStrings splits it, but with empty
// parts dropped. A key with no value gives nil.
func (c *Conf) GetStrings(key string) ([]string, error) {
	v, ok, err := c.Lookup(key)
	if err != nil || !ok {
		return nil, err
	}
	return splitList(v), nil
}

func splitList(v string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
