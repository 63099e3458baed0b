package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/internal/units"
)

// Kind is how a key's value is written and what a getter returns for it.
type Kind int

const (
	KindString   Kind = iota // any text; String
	KindInt                  // a whole number; Int
	KindBool                 // true or false, in any case; Bool
	KindFloat                // a finite decimal number; Float
	KindDuration             // a whole number and a time unit; Duration
	KindSize                 // a whole number and a size unit, held in MiB; SizeMiB
	KindEnum                 // one of the key's Values, in any case; Enum
	KindBytes                // a whole number of bytes, or one with a size unit; Bytes
)

func (k Kind) String() string {
	switch k {
	case KindString:
		return "string"
	case KindInt:
		return "int"
	case KindBool:
		return "bool"
	case KindFloat:
		return "float"
	case KindDuration:
		return "duration"
	case KindSize:
		return "size"
	case KindEnum:
		return "enum"
	case KindBytes:
		return "bytes"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// parse reads raw by the key's kind and applies the key's own check. The
// dynamic type of the result is fixed by the kind: string, int, bool,
// float64, time.Duration, int64 (MiB), string (the canonical enum value) or
// int64 (bytes).
func (k Key) parse(raw string) (any, error) {
	v, err := k.parseKind(raw)
	if err == nil && k.check != nil {
		err = k.check(v)
	}
	return v, err
}

func (k Key) parseKind(raw string) (any, error) {
	s := strings.TrimSpace(raw)
	switch k.Kind {
	case KindString:
		return raw, nil
	case KindInt:
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, errors.New("not a whole number")
		}
		return n, nil
	case KindBool:
		// Spark's booleanConf takes true or false in any case, nothing else.
		switch {
		case strings.EqualFold(s, "true"):
			return true, nil
		case strings.EqualFold(s, "false"):
			return false, nil
		}
		return nil, errors.New("not true or false")
	case KindFloat:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errors.New("not a finite number")
		}
		return f, nil
	case KindDuration:
		if k.Unit <= 0 {
			return nil, errors.New("duration key with no unit for a bare number")
		}
		return parseDuration(s, k.Unit)
	case KindSize:
		return units.ParseSizeMiB(s)
	case KindBytes:
		return units.ParseBytes(s)
	case KindEnum:
		// Spark upper-cases spark.scheduler.mode before comparing; any case
		// is accepted here and the registry's spelling returned.
		for _, v := range k.Values {
			if strings.EqualFold(s, v) {
				return v, nil
			}
		}
		return nil, fmt.Errorf("not one of %s", strings.Join(k.Values, ", "))
	}
	return nil, fmt.Errorf("key of unknown kind %v", k.Kind)
}
