package config

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/internal/shellword"
)

// A Config is the effective configuration: a value for every registry key,
// and where it came from. It is read-only once loaded.
type Config struct {
	values  map[string]value // by registry name; every key has one
	ignored []string         // spark.* keys Spindle does not know, sorted
	// from is each value's origin in the process that wrote the
	// settings file this was read from (LoadVerbatim), by key.
	from map[string]string
}

type value struct {
	Setting
	kind   Kind
	parsed any // see Key.parse for the type each kind gives
}

// A Setting is one key's effective value and where it came from.
type Setting struct {
	Key   string // the registry name
	Value string // as written (a file's values trimmed), or the default
	// Source is where Value came from; the zero Source for a default.
	Source Source
	// SetAs is the key as it was written where it was set: Key, or its
	// spark.* alias; "" for a default.
	SetAs string
	// DefaultFrom, for a default that follows another key, names that key.
	DefaultFrom string
}

// Where is how messages name a setting: the flag and its value for one a
// flag set ("--master lcal"); otherwise its source, the key as written (and
// its registry name when that differs) and its value.
func (s Setting) Where() string {
	if s.Source.Flag != "" {
		return s.Source.Flag + " " + shellword.Quote(s.Value)
	}
	key := s.SetAs
	if key == "" {
		key = s.Key
	} else if key != s.Key {
		key += " (" + s.Key + ")"
	}
	return fmt.Sprintf("%s: %s=%q", s.Source, key, s.Value)
}

// String is one line for --verbose output, e.g.
// "spindle.executor.memory=4g (conf/spark-defaults.conf:3 as spark.executor.memory)".
func (s Setting) String() string {
	origin := s.Source.String()
	switch {
	case s.DefaultFrom != "":
		origin = "default: follows " + s.DefaultFrom
	case s.SetAs != "" && s.SetAs != s.Key:
		origin += " as " + s.SetAs
	}
	return fmt.Sprintf("%s=%s (%s)", s.Key, s.Value, origin)
}

// String is the value of a string key; "" when it is unset.
func (c *Config) String(key string) (string, error) { return get[string](c, key, KindString) }

// Int is the value of an int key.
func (c *Config) Int(key string) (int, error) { return get[int](c, key, KindInt) }

// Bool is the value of a bool key.
func (c *Config) Bool(key string) (bool, error) { return get[bool](c, key, KindBool) }

// Float is the value of a float key.
func (c *Config) Float(key string) (float64, error) { return get[float64](c, key, KindFloat) }

// Duration is the value of a duration key.
func (c *Config) Duration(key string) (time.Duration, error) {
	return get[time.Duration](c, key, KindDuration)
}

// SizeMiB is the value of a size key, in MiB.
func (c *Config) SizeMiB(key string) (int64, error) { return get[int64](c, key, KindSize) }

// Bytes is the value of a bytes key.
func (c *Config) Bytes(key string) (int64, error) { return get[int64](c, key, KindBytes) }

// Enum is the value of an enum key, spelled as in the key's Values.
func (c *Config) Enum(key string) (string, error) { return get[string](c, key, KindEnum) }

// get returns a key's parsed value. Values were checked when loaded, so the
// only errors are a caller's: a key not in the registry, or a getter of the
// wrong kind.
func get[T any](c *Config, key string, kind Kind) (T, error) {
	var zero T
	v, ok := c.values[key]
	if !ok {
		return zero, fmt.Errorf("config: %q is not a registered key", key)
	}
	t, ok := v.parsed.(T)
	if v.kind != kind || !ok {
		return zero, fmt.Errorf("config: %s is of kind %v, read as %v", key, v.kind, kind)
	}
	return t, nil
}

// Source is where a key's value came from: the zero Source (default) for a
// key no source set, or one not in the registry.
func (c *Config) Source(key string) Source { return c.values[key].Source }

// IsSet says whether a source set key: false for a default, even one that
// follows another key's value.
func (c *Config) IsSet(key string) bool { return c.Source(key) != (Source{}) }

// Setting is one key's effective value and source; the zero Setting for a
// key not in the registry.
func (c *Config) Setting(key string) Setting { return c.values[key].Setting }

// Settings lists every key's effective value and source, sorted by key.
func (c *Config) Settings() []Setting {
	out := make([]Setting, 0, len(c.values))
	for _, v := range c.values {
		out = append(out, v.Setting)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// IgnoredSparkKeys lists, sorted, the spark.* keys the sources set that
// Spindle does not know; the command line warns about them once.
func (c *Config) IgnoredSparkKeys() []string { return append([]string(nil), c.ignored...) }
