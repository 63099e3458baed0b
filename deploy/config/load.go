package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A PropertiesFile is the text of one properties file and the name its
// errors give it (usually its path).
type PropertiesFile struct {
	Name string
	Text io.Reader
}

// A Flag is a key set by a command-line flag that stands for it, as
// --master stands for spindle.master: it wins over every other source, and
// messages about its value name the flag.
type Flag struct {
	Name  string // as typed, dashes included: "--master"
	Key   string // the key it sets
	Value string
}

// LoadFiles is Load for properties files named by path.
func LoadFiles(paths []string, overrides []string, flags ...Flag) (*Config, error) {
	files := make([]PropertiesFile, 0, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("properties file: %w", err)
		}
		defer f.Close() // open until Load has read it
		files = append(files, PropertiesFile{Name: p, Text: f})
	}
	return Load(files, overrides, flags...)
}

// Load reads the properties files in order, then the --conf KEY=VALUE
// overrides, then the flags; a later source wins over an earlier one. It
// checks every key and every value, and reports all it finds wrong (up to
// maxErrors) in one error, each line naming its source.
func Load(files []PropertiesFile, overrides []string, flags ...Flag) (*Config, error) {
	l := loader{set: map[string]assignment{}, ignored: map[string]bool{}}
	for _, f := range files {
		entries, errs := parseProperties(f.Name, f.Text)
		l.errs = append(l.errs, errs...)
		source := make([]assignment, len(entries))
		for i, e := range entries {
			source[i] = assignment{written: e.key, value: e.value, source: Source{File: f.Name, Line: e.line}}
		}
		l.apply(source)
	}
	l.apply(l.parseOverrides(overrides))
	for _, f := range flags {
		l.apply([]assignment{{written: f.Key, value: f.Value, source: Source{Flag: f.Name}}})
	}
	if len(l.errs) > 0 {
		return nil, joinErrors(l.errs)
	}
	return l.config()
}

// An assignment is one key set to one value in one source.
type assignment struct {
	written string // the key as written: spindle.* or its spark.* alias
	name    string // the registry name
	value   string
	parsed  any
	source  Source
}

// valueError says what is wrong with an assignment's value, naming it as
// Setting.Where does.
func (a assignment) valueError(err error) error {
	s := Setting{Key: a.name, Value: a.value, Source: a.source, SetAs: a.written}
	return fmt.Errorf("%s: %w", s.Where(), err)
}

type loader struct {
	set     map[string]assignment // by registry name, the winning assignment so far
	ignored map[string]bool       // spark.* keys Spindle does not know
	errs    []error
}

func (l *loader) parseOverrides(overrides []string) []assignment {
	source := make([]assignment, 0, len(overrides))
	for _, kv := range overrides {
		// As spark-submit does: split at the first '=', nothing trimmed.
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			l.errs = append(l.errs, fmt.Errorf("%s %q: want KEY=VALUE", confFlag, kv))
			continue
		}
		source = append(source, assignment{written: key, value: value, source: Source{File: confFlag}})
	}
	return source
}

// apply merges one source's assignments, in order, over what earlier
// sources set.
func (l *loader) apply(source []assignment) {
	last := map[string]assignment{} // by key as written: the later line wins
	var written []string            // keys as written, first seen first
	for _, a := range source {
		name, known, err := canonicalKey(a.written)
		if err != nil {
			l.errs = append(l.errs, fmt.Errorf("%s: %w", a.source, err))
			continue
		}
		if !known {
			l.ignored[a.written] = true
			continue
		}
		a.name = name
		key, _ := keyFor(name)
		if a.parsed, err = key.parse(a.value); err != nil {
			l.errs = append(l.errs, a.valueError(err))
			continue
		}
		if _, seen := last[a.written]; !seen {
			written = append(written, a.written)
		}
		last[a.written] = a
	}

	// Both spellings of one key in one source must agree: nothing says
	// which the author meant. When they agree the spindle.* line is kept.
	chosen := map[string]assignment{}
	for _, w := range written {
		a := last[w]
		prev, both := chosen[a.name]
		switch {
		case !both:
			chosen[a.name] = a
		case prev.parsed != a.parsed:
			l.errs = append(l.errs, fmt.Errorf("%s: %s=%q and %s: %s=%q set %s to different values; keep one",
				prev.source, prev.written, prev.value, a.source, a.written, a.value, a.name))
		case strings.HasPrefix(a.written, spindlePrefix):
			chosen[a.name] = a
		}
	}
	for name, a := range chosen {
		l.set[name] = a
	}
}

// config builds the effective configuration: what the sources set, and the
// registry's defaults for the rest.
func (l *loader) config() (*Config, error) {
	c := &Config{values: make(map[string]value, len(registry))}
	for _, k := range registry {
		if a, ok := l.set[k.Name]; ok {
			c.values[k.Name] = value{
				Setting: Setting{Key: k.Name, Value: a.value, Source: a.source, SetAs: a.written},
				kind:    k.Kind, parsed: a.parsed,
			}
			continue
		}
		if k.DefaultFrom != "" {
			continue // below, once the key it follows is known
		}
		parsed, err := k.parse(k.Default)
		if err != nil {
			return nil, fmt.Errorf("registry: default %q of %s: %w", k.Default, k.Name, err)
		}
		c.values[k.Name] = value{Setting: Setting{Key: k.Name, Value: k.Default}, kind: k.Kind, parsed: parsed}
	}
	for _, k := range registry {
		if _, ok := c.values[k.Name]; ok {
			continue
		}
		from, ok := c.values[k.DefaultFrom]
		if !ok || from.kind != k.Kind {
			return nil, fmt.Errorf("registry: %s follows %s, which is not a %v key with a value", k.Name, k.DefaultFrom, k.Kind)
		}
		c.values[k.Name] = value{
			Setting: Setting{Key: k.Name, Value: from.Value, DefaultFrom: k.DefaultFrom},
			kind:    k.Kind, parsed: from.parsed,
		}
	}
	if err := c.followLocalMaxFailures(l.set["spindle.master"]); err != nil {
		return nil, err
	}
	if err := c.checkIdleTimeoutActs(); err != nil {
		return nil, err
	}
	for _, name := range prefixedNames(l.set) {
		a := l.set[name]
		k, _ := keyFor(name)
		c.values[name] = value{Setting: Setting{Key: name, Value: a.value, Source: a.source, SetAs: a.written}, kind: k.Kind, parsed: a.parsed}
	}
	for key := range l.ignored {
		c.ignored = append(c.ignored, key)
	}
	sort.Strings(c.ignored)
	return c, nil
}

// maxErrors bounds the errors one Load reports: enough to fix a file in one
// go, few enough to read.
const maxErrors = 20

func joinErrors(errs []error) error {
	if len(errs) > maxErrors {
		errs = append(errs[:maxErrors:maxErrors], fmt.Errorf("and %d more errors", len(errs)-maxErrors))
	}
	return errors.Join(errs...)
}
