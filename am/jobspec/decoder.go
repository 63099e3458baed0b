package jobspec

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/spindle-yarn/spindle/internal/suggest"
)

// decoder walks one parsed YAML document against the job spec's schema.
// It collects errors rather than stopping at the first, so that one run
// shows everything to fix; each names file, line and field.
type decoder struct {
	source string
	errs   []lineError
	// values counts the nodes visited, aliases expanded as often as they
	// are used, against maxValues: an alias is a few bytes however large
	// what it names.
	values int
	// stopped is set once there are too many errors, or too many values,
	// to make walking further worth it.
	stopped bool
	// truncated is set when an error was dropped, maxErrors being shown.
	truncated bool
	// checked holds the template texts already checked, with 1 + the
	// longest prefix they were checked behind (checkTemplate): a text
	// repeated through the spec (or an alias) is parsed once.
	checked map[string]int
}

const (
	// maxErrors bounds the errors one spec reports: enough to fix a spec
	// in one go, few enough to read.
	maxErrors = 20
	// maxValues bounds the values a spec may hold, aliases expanded, and
	// so the work and memory of reading it: a spec of maxSpecBytes
	// written out in full has fewer.
	maxValues = 1 << 19
)

func newDecoder(source string) *decoder {
	return &decoder{source: source, checked: map[string]int{}}
}

// lineError is one problem, already worded; line orders the report.
type lineError struct {
	line int
	msg  string
}

func (e lineError) Error() string { return e.msg }

// errorf records a problem with the value at path (a field like
// stages[0].resources.gpus; empty for the document itself) on line.
func (d *decoder) errorf(line int, path, format string, args ...any) {
	if len(d.errs) == maxErrors {
		d.truncated, d.stopped = true, true
		return
	}
	where := d.source
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	if path != "" {
		where += ": " + path
	}
	d.errs = append(d.errs, lineError{line, where + ": " + fmt.Sprintf(format, args...)})
}

// err is every problem recorded, in line order, as one error; nil if none.
func (d *decoder) err() error {
	if len(d.errs) == 0 {
		return nil
	}
	sort.SliceStable(d.errs, func(i, j int) bool { return d.errs[i].line < d.errs[j].line })
	errs := make([]error, 0, len(d.errs)+1)
	for _, e := range d.errs {
		errs = append(errs, e)
	}
	if d.truncated {
		errs = append(errs, fmt.Errorf("%s: stopped after %d errors", d.source, maxErrors))
	}
	return errors.Join(errs...)
}

// value follows n through aliases to the value it stands for, counting it
// against maxValues. Explicit tags (!!int, !foo) are refused: the schema
// fixes every value's type, and a tag could only contradict it.
func (d *decoder) value(n *yaml.Node, path string) (*yaml.Node, bool) {
	if d.stopped {
		return nil, false
	}
	if d.values++; d.values > maxValues {
		d.errorf(n.Line, path, "more than %d values, aliases expanded: a job spec this large is a mistake", maxValues)
		d.stopped = true
		return nil, false
	}
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Style&yaml.TaggedStyle != 0 {
		d.errorf(n.Line, path, "%q: explicit tags are not supported", clip(n.Tag))
		return nil, false
	}
	return n, true
}

// describe shows a value in a message: a string quoted, a number or other
// scalar as written, a collection by its kind.
func describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case isNull(n):
		return "null"
	case n.ShortTag() == "!!str":
		return strconv.Quote(clip(n.Value))
	}
	return clip(n.Value)
}

// clip shortens s for a message: a long value is noise, the start of it
// says which one.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "..."
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// entry is one key of a mapping and its value.
type entry struct {
	key   string
	line  int // the key's
	value *yaml.Node
}

// mapping reads n as a mapping with scalar keys, in order, refusing
// duplicate keys and merge keys.
func (d *decoder) mapping(n *yaml.Node, path string) ([]entry, bool) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n.Line, path, "%s: not a mapping", describe(n))
		return nil, false
	}
	first := make(map[string]int, len(n.Content)/2)
	entries := make([]entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content) && !d.stopped; i += 2 {
		k, ok := d.value(n.Content[i], path)
		if !ok {
			continue
		}
		switch {
		case k.Kind != yaml.ScalarNode:
			d.errorf(k.Line, path, "%s as a key: keys are names", describe(k))
			continue
		case k.ShortTag() == "!!merge":
			d.errorf(k.Line, join(path, k.Value), "merge keys are not supported: write the keys out")
			continue
		}
		if line, dup := first[k.Value]; dup {
			d.errorf(k.Line, keyField(path, k.Value), "duplicate key (first on line %d)", line)
			continue
		}
		first[k.Value] = k.Line
		entries = append(entries, entry{key: k.Value, line: k.Line, value: n.Content[i+1]})
	}
	return entries, true
}

// fields reads n as a mapping of the schema whose keys must be among
// known; misplaced maps a key that belongs elsewhere to where. A key whose
// value is null counts as absent, as YAML writers expect of an empty key.
func (d *decoder) fields(n *yaml.Node, path string, known []string, misplaced map[string]string) map[string]entry {
	entries, ok := d.mapping(n, path)
	if !ok {
		return nil
	}
	fields := make(map[string]entry, len(entries))
	for _, e := range entries {
		if !slices.Contains(known, e.key) {
			hint := ""
			if where, ok := misplaced[e.key]; ok {
				hint = "; it belongs " + where
			} else if near := nearest(e.key, known); near != "" {
				hint = "; did you mean " + near + "?"
			} else {
				hint = " (known: " + strings.Join(known, ", ") + ")"
			}
			d.errorf(e.line, path, "unknown key %q%s", clip(e.key), hint)
			continue
		}
		v, ok := d.value(e.value, join(path, e.key))
		if !ok || isNull(v) {
			continue
		}
		e.value = v
		fields[e.key] = e
	}
	return fields
}

// nearest is the name in known closest to got, for a did-you-mean, or ""
// if none is near. A difference of case counts as none. A short name may
// be one edit off (none for one letter), a longer one two: any two short
// names are a few edits apart (foo is two from job).
func nearest(got string, known []string) string {
	bestDistance := min(len(got), 2) // what a suggestion must be closer than
	if len(got) >= 6 {
		bestDistance = 3
	}
	best := ""
	for _, k := range known {
		if d := suggest.Distance(strings.ToLower(got), strings.ToLower(k), bestDistance); d < bestDistance {
			best, bestDistance = k, d
		}
	}
	return best
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// keyField is join(path, key) for a key of any text: one that would
// garble the message, or is long, is quoted and clipped.
func keyField(path, key string) string {
	if len(key) > 40 || checkName(key) != nil || strings.ContainsAny(key, " \"") {
		key = strconv.Quote(clip(key))
	}
	return join(path, key)
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// text reads a scalar as its text: a string, or a number or boolean as
// written (tasks often want `sleep 5` as ["sleep", 5]).
func (d *decoder) text(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		d.errorf(n.Line, path, "%s: not a string", describe(n))
		return "", false
	}
	return n.Value, true
}

// name reads a name (of the job, a stage, a pool, a host): a string, not
// empty, with no control characters to garble logs and environments.
func (d *decoder) name(n *yaml.Node, path string) (string, bool) {
	s, ok := d.text(n, path)
	if !ok {
		return "", false
	}
	if err := checkName(s); err != nil {
		d.errorf(n.Line, path, "%s: %v", describe(n), err)
		return "", false
	}
	return s, true
}

// maxNameBytes bounds names, which travel in every task's environment
// and in YARN's application reports.
const maxNameBytes = 256

func checkName(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case len(s) > maxNameBytes:
		return fmt.Errorf("longer than %d bytes", maxNameBytes)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return errors.New("contains a control character")
	case !utf8.ValidString(s):
		return errors.New("not UTF-8")
	}
	return nil
}

// int reads a whole number of at least least, written in decimal.
func (d *decoder) int(n *yaml.Node, path string, least int) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		d.errorf(n.Line, path, "%s: not a whole number", describe(n))
		return 0, false
	}
	i, err := strconv.Atoi(n.Value)
	switch {
	case errors.Is(err, strconv.ErrRange):
		d.errorf(n.Line, path, "%s: too large", describe(n))
		return 0, false
	case err != nil: // 0x10, 0o17, 1_000: YAML ints, but not written as users read them
		d.errorf(n.Line, path, "%s: not a whole number in decimal", describe(n))
		return 0, false
	case i < least:
		d.errorf(n.Line, path, "%s: must be at least %d", describe(n), least)
		return 0, false
	}
	return i, true
}

// boolean reads true or false.
func (d *decoder) boolean(n *yaml.Node, path string) bool {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || (n.Value != "true" && n.Value != "false") {
		d.errorf(n.Line, path, "%s: want true or false", describe(n))
		return false
	}
	return n.Value == "true"
}

// number reads a number, whole or not.
func (d *decoder) number(n *yaml.Node, path string) (float64, bool) {
	if tag := n.ShortTag(); n.Kind == yaml.ScalarNode && (tag == "!!int" || tag == "!!float") {
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f, true
		}
	}
	d.errorf(n.Line, path, "%s: not a number", describe(n))
	return 0, false
}

// names reads a list of names, with the line of each; none if any is
// wrong, so that names[k] is always the list's element k.
func (d *decoder) names(n *yaml.Node, path string) (names []string, lines []int) {
	if n.Kind != yaml.SequenceNode {
		hint := ""
		if n.Kind == yaml.ScalarNode && checkName(n.Value) == nil {
			hint = fmt.Sprintf(" (write [%s])", clip(n.Value))
		}
		d.errorf(n.Line, path, "%s: not a list%s", describe(n), hint)
		return nil, nil
	}
	valid := true
	for i, e := range n.Content {
		e, ok := d.value(e, index(path, i))
		if !ok {
			valid = false
			continue
		}
		s, ok := d.name(e, index(path, i))
		valid = valid && ok
		names = append(names, s)
		lines = append(lines, e.Line)
	}
	if !valid {
		return nil, nil
	}
	return names, lines
}
