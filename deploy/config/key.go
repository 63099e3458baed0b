package config

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spindle-yarn/spindle/executor/contain"
)

// A Key is one row of the registry: a setting Spindle knows, under its
// spindle.* name. Its spark.* alias is implied.
type Key struct {
	Name string
	// Default is the value as a user would write it; "" means unset, which
	// only string keys use.
	Default string
	// DefaultFrom names another key whose effective value is this key's
	// default (Spark's fallbackConf); Default is then unused.
	DefaultFrom string
	Kind        Kind
	// Unit is what a bare number means for a duration key (Spark's
	// timeConf unit): time.Second or time.Millisecond.
	Unit time.Duration
	// Values are an enum key's allowed values, spelled as getters return them.
	Values []string
	// Meaning is one line for help and --verbose output.
	Meaning string

	// check, when set, holds the value to the key's own rule beyond its
	// kind; it is given the parsed value.
	check func(any) error
}

// unlimited is how "no upper bound" is written for an int key.
var unlimited = fmt.Sprint(math.MaxInt)

// atLeast is a check that an int key is at least min.
func atLeast(min int) func(any) error {
	return func(v any) error {
		n, ok := v.(int)
		if !ok {
			return fmt.Errorf("internal error: int check given %T", v)
		}
		if n < min {
			return fmt.Errorf("must be at least %d", min)
		}
		return nil
	}
}

// between is a check that an int key is from min to max.
func between(min, max int) func(any) error {
	floor := atLeast(min)
	return func(v any) error {
		if err := floor(v); err != nil {
			return err
		}
		if n := v.(int); n > max {
			return fmt.Errorf("must be at most %d", max)
		}
		return nil
	}
}

// logCap is the check on spindle.task.log.maxBytes: 0 (no cap) or at
// least minLogCap bytes.
func logCap(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("internal error: bytes check given %T", v)
	}
	if n != 0 && n < contain.MinOutputCap {
		return fmt.Errorf("must be 0 (keep everything) or at least %d bytes", contain.MinOutputCap)
	}
	return nil
}

// logRollCap is the check on spindle.log.maxBytes: 0 (never roll) or at
// least minLogRoll bytes, so that a log line fits in a file.
func logRollCap(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("internal error: bytes check given %T", v)
	}
	if n != 0 && n < minLogRoll {
		return fmt.Errorf("must be 0 (never roll over) or at least %d bytes", minLogRoll)
	}
	return nil
}

// minLogRoll is the smallest spindle.log.maxBytes.
const minLogRoll = 1024

// atLeastMiB is a check that a size key is at least min MiB.
func atLeastMiB(min int64) func(any) error {
	return func(v any) error {
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("internal error: size check given %T", v)
		}
		if n < min {
			return fmt.Errorf("must be at least %dm", min)
		}
		return nil
	}
}

// positiveDuration is a check that a duration key is more than zero, as
// Spark requires of the scheduler backlog timeouts.
func positiveDuration(v any) error {
	d, ok := v.(time.Duration)
	if !ok {
		return fmt.Errorf("internal error: duration check given %T", v)
	}
	if d <= 0 {
		return errors.New("must be more than 0")
	}
	return nil
}

// floatCheck is a check on a float key: ok says whether f is allowed, and
// rule says what is.
func floatCheck(rule string, ok func(f float64) bool) func(any) error {
	return func(v any) error {
		f, isFloat := v.(float64)
		if !isFloat {
			return fmt.Errorf("internal error: float check given %T", v)
		}
		if !ok(f) {
			return errors.New(rule)
		}
		return nil
	}
}

// master is the check on spindle.master: ParseMaster's forms. Spark's
// cluster masters (spark://, k8s://, mesos://) have no meaning here.
func master(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("internal error: master check given %T", v)
	}
	_, err := ParseMaster(s)
	return err
}
