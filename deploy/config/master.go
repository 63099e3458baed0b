package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Master is spindle.master read, with Spark's meanings: yarn, or local
// mode's executor processes — local is local[1], local[*] every logical
// core, and local[N,F] also sets F attempts per task.
type Master struct {
	Yarn bool
	// Executors is local[N]'s N; 0 for local[*].
	Executors int
	// MaxFailures is local[N,F]'s F; 0 when the master gives none.
	MaxFailures int
}

// maxLocalExecutors bounds local[N]: each executor is a process.
const maxLocalExecutors = 999_999

// masterForms is what a wrong master is told to be.
var masterForms = errors.New("want local, local[N], local[*] or yarn")

// ParseMaster reads a spindle.master value. Like Spark it allows blanks
// around local[N,F]'s comma, and nowhere else.
func ParseMaster(s string) (Master, error) {
	switch s {
	case "yarn":
		return Master{Yarn: true}, nil
	case "local":
		return Master{Executors: 1}, nil
	}
	inner, ok := strings.CutPrefix(s, "local[")
	if ok {
		inner, ok = strings.CutSuffix(inner, "]")
	}
	if !ok {
		return Master{}, masterForms
	}
	n, f, withF := strings.Cut(inner, ",")
	if withF {
		n, f = strings.TrimRight(n, " "), strings.TrimLeft(f, " ")
	}
	var m Master
	var err error
	if n != "*" {
		if m.Executors, err = wholeNumber(n, "N, the executor count,", maxLocalExecutors); err != nil {
			return Master{}, err
		}
	}
	if withF {
		if m.MaxFailures, err = wholeNumber(f, "F, the attempts per task,", math.MaxInt32); err != nil {
			return Master{}, err
		}
	}
	return m, nil
}

// wholeNumber reads s, decimal digits only, as a number from 1 to most;
// what names it in errors.
func wholeNumber(s, what string, most int) (int, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, masterForms
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > most {
		return 0, fmt.Errorf("%s must be from 1 to %d", what, most)
	}
	return n, nil
}

// LocalExecutors is how many executor processes local mode runs:
// local[N]'s N, or for local[*] as many as fill the machine's logical
// cores with executors of executorCores each, at least one.
func (m Master) LocalExecutors(logicalCores, executorCores int) int {
	if m.Executors > 0 {
		return m.Executors
	}
	return max(logicalCores/max(executorCores, 1), 1)
}

// Master is spindle.master, read.
func (c *Config) Master() (Master, error) {
	s, err := c.String("spindle.master")
	if err != nil {
		return Master{}, err
	}
	return ParseMaster(s)
}

// followLocalMaxFailures gives spindle.task.maxFailures local[N,F]'s F
// when no source sets that key, as Spark's local[N,F] does; F meets the
// key's own check. master is spindle.master's winning assignment, if any.
func (c *Config) followLocalMaxFailures(master assignment) error {
	const key = "spindle.task.maxFailures"
	if c.IsSet(key) || master.value == "" {
		return nil
	}
	m, err := ParseMaster(master.value)
	if err != nil || m.MaxFailures == 0 {
		return err // err is nil: the value was checked when it was loaded
	}
	raw := strconv.Itoa(m.MaxFailures)
	parsed, err := byName[key].parse(raw)
	if err != nil {
		return master.valueError(fmt.Errorf("F sets %s: %w", key, err))
	}
	c.values[key] = value{Setting: Setting{Key: key, Value: raw, DefaultFrom: master.name}, kind: KindInt, parsed: parsed}
	return nil
}
