package config

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/spindle-yarn/spindle/executor/taskenv"
)

// A family is a set of keys under one prefix, each naming something of
// the user's, as Spark's spark.executorEnv.NAME names an environment
// variable: the registry cannot list them, so the prefix is registered and
// each suffix checked.
type family struct {
	Prefix  string // "spindle.executorEnv."
	Meaning string
	// checkSuffix holds a key's suffix to the family's rule.
	checkSuffix func(string) error
}

// families are the registered prefixes; a key under one is a string key.
var families = []family{
	{Prefix: "spindle.executorEnv.", Meaning: "an environment variable of every executor, and so of its tasks (Spark's spark.executorEnv.NAME)",
		checkSuffix: executorEnvName},
}

// ExecutorEnvPrefix is the family of executor environment variables.
const ExecutorEnvPrefix = "spindle.executorEnv."

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// executorEnvName is the rule for spindle.executorEnv.NAME: a variable
// name, not one Spindle sets for each task, and not the one through which
// an executor on YARN finds its credentials.
func executorEnvName(name string) error {
	switch {
	case !envName.MatchString(name):
		return fmt.Errorf("%q is not an environment variable name (letters, digits and _, not starting with a digit)", name)
	case taskenv.Reserved(name):
		return fmt.Errorf("%s is reserved: Spindle sets it for each task", name)
	case name == "HADOOP_TOKEN_FILE_LOCATION":
		return errors.New("HADOOP_TOKEN_FILE_LOCATION is the container's own: the NodeManager sets it")
	}
	return nil
}

// familyKey returns the key for name, a spindle.* key under a registered
// prefix, as a registry row would describe it.
func familyKey(name string) (Key, bool) {
	for _, f := range families {
		if suffix, ok := strings.CutPrefix(name, f.Prefix); ok {
			check := func(any) error { return f.checkSuffix(suffix) }
			return Key{Name: name, Kind: KindString, Meaning: f.Meaning, check: check}, true
		}
	}
	return Key{}, false
}

// keyFor is the registry row of a registered name, or its family's.
func keyFor(name string) (Key, bool) {
	if k, ok := byName[name]; ok {
		return k, true
	}
	if k, ok := familyKey(name); ok {
		return k, true
	}
	return resourceKey(name)
}

// Prefixed returns the keys set under a family's prefix, by suffix: for
// ExecutorEnvPrefix, the variables and their values.
func (c *Config) Prefixed(prefix string) map[string]string {
	out := map[string]string{}
	for name, v := range c.values {
		if suffix, ok := strings.CutPrefix(name, prefix); ok && suffix != "" {
			out[suffix] = v.Value
		}
	}
	return out
}

// prefixedNames lists, sorted, the family keys a loader set.
func prefixedNames(set map[string]assignment) []string {
	var names []string
	for name := range set {
		if _, inRegistry := byName[name]; !inRegistry {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
