package hadoopconf

import (
	"fmt"
	"strings"
)

const (
	// maxSubst is Hadoop's MAX_SUBST: the expansion loop runs this many
	// passes, and a pass that still finds a variable to replace after the
	// last one is an error. So at most maxSubst-1 replacements succeed.
	maxSubst = 20
	// maxExpanded bounds a value's growth under substitution (each pass
	// may paste in a whole value), keeping the work bounded on purpose-made
	// input.
	maxExpanded = 1 << 20
)

// Get returns key's value with ${...} references expanded as Hadoop's
// Configuration.get does (see the package documentation), and whether the
// key has a value at all (built-in defaults count). A value whose
// expansion runs past the depth limit, which takes a reference cycle, comes
// back raw; Lookup reports it.
func (c *Conf) Get(key string) (string, bool) {
	v, ok, err := c.Lookup(key)
	if err != nil {
		return c.Raw(key)
	}
	return v, ok
}

// GetDefault is Get with a value for a key that has none.
func (c *Conf) GetDefault(key, def string) string {
	if v, ok := c.Get(key); ok {
		return v
	}
	return def
}

// Lookup is Get that reports a failed expansion as a *ValueError naming
// the key, its raw value and where it was set.
func (c *Conf) Lookup(key string) (string, bool, error) {
	raw, ok := c.Raw(key)
	if !ok {
		return "", false, nil
	}
	v, err := c.expand(raw)
	if err != nil {
		return "", true, c.valueError(key, raw, err.Error())
	}
	return v, true, nil
}

// expand is Hadoop's substituteVars: replace the left-most ${var} until
// none is left, stopping (and returning what it has) at the first
// variable nothing defines, and returning expr unexpanded when a variable's
// value contains the reference itself.
func (c *Conf) expand(expr string) (string, error) {
	eval := expr
	for range maxSubst {
		start, end := findVar(eval)
		if start < 0 {
			return eval, nil
		}
		val, ok := c.resolve(eval[start:end])
		if !ok {
			return eval, nil
		}
		ref := eval[start-2 : end+1] // ${var}
		if strings.Contains(val, ref) {
			return expr, nil
		}
		if len(eval)-len(ref)+len(val) > maxExpanded {
			return "", fmt.Errorf("expands past %d bytes", maxExpanded)
		}
		eval = eval[:start-2] + val + eval[end+1:]
	}
	return "", fmt.Errorf("variable substitution depth too large: more than %d passes (a reference cycle?)", maxSubst)
}

// findVar returns the bounds of the name in the left-most ${name} of s,
// where a name is one or more characters other than '}', '$' and ' ' (the
// pattern \$\{[^\}\$ ]+\} Hadoop matches), or -1, -1.
func findVar(s string) (start, end int) {
	for from := 0; ; {
		i := strings.Index(s[from:], "${")
		if i < 0 {
			return -1, -1
		}
		start = from + i + 2
		end = start
		for end < len(s) && s[end] != '}' && s[end] != '$' && s[end] != ' ' {
			end++
		}
		if end < len(s) && s[end] == '}' && end > start {
			return start, end
		}
		// A scan stops at the first '$', so no "${" lies before end.
		from = max(end, from+i+1)
	}
}

// resolve looks a variable up in Hadoop's order: ${env.NAME} in the
// environment, any other name among the system properties; failing that,
// in the configuration itself.
func (c *Conf) resolve(name string) (string, bool) {
	if env, ok := strings.CutPrefix(name, "env."); ok && env != "" {
		if v, ok := c.envVar(env); ok {
			return v, true
		}
	} else if v, ok := c.env.System[name]; ok {
		return v, true
	}
	return c.Raw(name)
}

// envVar evaluates NAME, NAME:-default (default when NAME is unset or
// empty) and NAME-default (default only when NAME is unset), splitting at
// the first '-' as Hadoop does.
func (c *Conf) envVar(v string) (string, bool) {
	for i := 0; i < len(v); i++ {
		if v[i] == ':' && i+1 < len(v) && v[i+1] == '-' {
			if val, ok := c.getenv(v[:i]); ok && val != "" {
				return val, true
			}
			return v[i+2:], true
		}
		if v[i] == '-' {
			if val, ok := c.getenv(v[:i]); ok {
				return val, true
			}
			return v[i+1:], true
		}
	}
	return c.getenv(v)
}

func (c *Conf) getenv(name string) (string, bool) {
	if c.env.Lookup == nil || name == "" {
		return "", false
	}
	return c.env.Lookup(name)
}
