package hadoopconf

import (
	"fmt"
	"io"
	"sort"
	"strings"

	hdfsconf "github.com/colinmarc/hdfs/v2/hadoopconf"
)

// Conf is a Hadoop client configuration: site resources merged in the order
// they were added, over the few *-default.xml values Spindle reads.
//
// A Conf is safe for concurrent reads; Add, AddFile and Set must not run
// concurrently with anything else.
type Conf struct {
	env   Env
	props map[string]setting
	// order lists the keys of props in the order they were first set, so
	// that WriteXML writes a stable, readable file.
	order     []string
	final     map[string]Pos // key → the declaration that made it final
	ignored   []IgnoredOverride
	resources []string
}

// setting is a key's raw (unsubstituted) value and where it was set.
type setting struct {
	value string
	pos   Pos
}

// Env is what ${...} substitution sees besides the configuration itself.
// Keeping it a value (not os.Getenv) makes every rule testable.
type Env struct {
	// Lookup resolves ${env.NAME}, like os.LookupEnv; nil is an empty
	// environment. It must tell an unset variable from an empty one for
	// ${env.NAME-default}.
	Lookup func(name string) (string, bool)
	// System stands in for Java's system properties (user.name,
	// user.home, java.io.tmpdir, ...), which Hadoop consults before the
	// configuration. SystemProperties builds the usual set.
	System map[string]string
}

// IgnoredOverride is a later resource's attempt to change a key an earlier
// declaration made final. Hadoop logs these and keeps the final value;
// Conf keeps them for the caller to report.
type IgnoredOverride struct {
	Key     string
	Value   string // the value the attempt would have set
	At      Pos    // the attempt
	FinalAt Pos    // the declaration that made Key final
}

func (o IgnoredOverride) String() string {
	return fmt.Sprintf("%s: attempt to override final parameter %s (final at %s); ignored", o.At, o.Key, o.FinalAt)
}

// New returns an empty configuration (built-in defaults only) whose
// substitution sees env.
func New(env Env) *Conf {
	return &Conf{env: env, props: map[string]setting{}, final: map[string]Pos{}}
}

// Set sets key programmatically. As Hadoop's Configuration.set, it wins
// over every resource, final ones included.
func (c *Conf) Set(key, value string) {
	c.put(canonicalKey(key), value, Pos{File: "set programmatically"})
}

func (c *Conf) put(key, value string, pos Pos) {
	if _, ok := c.props[key]; !ok {
		c.order = append(c.order, key)
	}
	c.props[key] = setting{value, pos}
}

// merge applies one property of a resource with Hadoop's rules: a key made
// final by an earlier declaration keeps its value; a property without a
// value sets nothing, but its final flag still closes the key.
func (c *Conf) merge(p *Property) {
	key := canonicalKey(p.Name)
	if at, ok := c.final[key]; ok {
		if cur, set := c.props[key]; p.HasValue && (!set || cur.value != p.Value) {
			c.ignored = append(c.ignored, IgnoredOverride{Key: key, Value: p.Value, At: p.Pos, FinalAt: at})
		}
		return
	}
	if p.HasValue {
		c.put(key, p.Value, p.Pos)
	}
	if p.Final {
		c.final[key] = p.Pos
	}
}

// canonicalKey trims key, as Hadoop does, and maps a deprecated name to
// its replacement, as Hadoop does both on loading and on lookup.
func canonicalKey(key string) string {
	key = strings.TrimSpace(key)
	if repl, ok := deprecatedKeys[key]; ok {
		return repl
	}
	return key
}

// Raw returns key's value before substitution: from the resources, else
// from the built-in defaults.
func (c *Conf) Raw(key string) (string, bool) {
	key = canonicalKey(key)
	if s, ok := c.props[key]; ok {
		return s.value, true
	}
	d, ok := defaults[key]
	return d.value, ok
}

// Source returns where key's value came from: a file and line, a built-in
// default file, or "set programmatically".
func (c *Conf) Source(key string) (Pos, bool) {
	key = canonicalKey(key)
	if s, ok := c.props[key]; ok {
		return s.pos, true
	}
	if d, ok := defaults[key]; ok {
		return Pos{File: d.file + " (built in)"}, true
	}
	return Pos{}, false
}

// IsFinal reports whether a resource declared key final.
func (c *Conf) IsFinal(key string) bool {
	_, ok := c.final[canonicalKey(key)]
	return ok
}

// Keys returns the keys the resources and Set gave a value, sorted; the
// built-in defaults are not among them.
func (c *Conf) Keys() []string {
	keys := make([]string, 0, len(c.props))
	for k := range c.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// IgnoredOverrides returns the attempts to change final keys, in the order
// the resources made them.
func (c *Conf) IgnoredOverrides() []IgnoredOverride {
	return append([]IgnoredOverride(nil), c.ignored...)
}

// Resources returns the files merged into c, included ones too, in the
// order they were read.
func (c *Conf) Resources() []string {
	return append([]string(nil), c.resources...)
}

// HadoopConf returns the keys the resources set, substituted, as
// colinmarc/hdfs's map, for hdfs.ClientOptionsFromConf. The built-in
// defaults are left out: that package reads a missing fs.defaultFS as "no
// namenode configured", and file:/// would read as a namenode named "".
// Its Namenodes panics on an fs.defaultFS that is no URL, so check
// DefaultFS first.
func (c *Conf) HadoopConf() hdfsconf.HadoopConf {
	m := make(hdfsconf.HadoopConf, len(c.props))
	for k := range c.props {
		m[k], _ = c.Get(k)
	}
	return m
}

// WriteXML writes the keys the resources set, raw and with their final
// flags, as one site file (in the order the keys were first set), so that
// another process, an ApplicationMaster say, can load the same
// configuration. Final keys that no resource gave a value are written too,
// so that they stay closed.
func (c *Conf) WriteXML(w io.Writer) error {
	r := &Resource{Name: "spindle"}
	for _, k := range c.order {
		s := c.props[k]
		_, final := c.final[k]
		r.Items = append(r.Items, &Property{Name: k, Value: s.value, HasValue: true, Final: final})
	}
	var closed []string
	for k := range c.final {
		if _, ok := c.props[k]; !ok {
			closed = append(closed, k)
		}
	}
	sort.Strings(closed)
	for _, k := range closed {
		r.Items = append(r.Items, &Property{Name: k, Final: true})
	}
	return r.WriteXML(w)
}
