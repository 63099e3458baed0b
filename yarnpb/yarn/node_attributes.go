package yarn

import (
	"fmt"
	"strings"
)

// Node attribute prefixes: rm.yarn.io is set centrally (rmadmin, the RM's
// NodeAttributesManager), nm.yarn.io by the NodeManagers' own scripts. A
// name without a prefix is rm.yarn.io's, as YARN reads it.
const (
	CentralAttributes     = "rm.yarn.io"
	DistributedAttributes = "nm.yarn.io"
)

// Bounds on an expression, so that a bad one never costs without limit:
// YARN's own bound on a name or value, and a generous count of terms.
const (
	maxAttributeText   = 255
	maxAttributeTerms  = 16
	maxAttributeSource = maxAttributeTerms * (2*maxAttributeText + 16)
)

// AttributeTerm is one comparison of a node attribute-expression: the
// node's attribute Name (with its prefix) equals Value, or differs from it
// when Not.
type AttributeTerm struct {
	Name  string
	Value string
	Not   bool
}

func (t AttributeTerm) String() string {
	op := "="
	if t.Not {
		op = "!="
	}
	return t.Name + op + t.Value
}

// ParseNodeAttributes reads a node attribute expression in YARN's syntax:
// one comparison, `gpu_type=A100` or `rm.yarn.io/python!=3`, or several
// that must all hold, `AND(gpu_type=A100:python!=3)`. Names and values are
// held to YARN's patterns (NodeLabelUtil), at most 255 characters: a
// letter or digit, then letters, digits, '_' or '-' (values may also have
// '.', `java=1.8`); names may carry the rm.yarn.io/ or nm.yarn.io/ prefix.
// A name YARN cannot hold (`gpu.type`) is refused: no node could match.
// The terms come back with their prefix, rm.yarn.io/ when none was given.
func ParseNodeAttributes(expr string) ([]AttributeTerm, error) {
	s := strings.TrimSpace(expr)
	if s == "" {
		return nil, fmt.Errorf("empty node attribute expression")
	}
	if len(s) > maxAttributeSource {
		return nil, fmt.Errorf("node attribute expression of %d characters: at most %d", len(s), maxAttributeSource)
	}
	parts := []string{s}
	if inner, ok := andBody(s); ok {
		parts = strings.Split(inner, ":")
	} else if strings.ContainsAny(s, "():") {
		return nil, fmt.Errorf("node attribute expression %q: write one comparison (name=value, name!=value) or AND(a=b:c!=d)", expr)
	}
	if len(parts) > maxAttributeTerms {
		return nil, fmt.Errorf("node attribute expression %q: %d comparisons, at most %d", expr, len(parts), maxAttributeTerms)
	}
	terms := make([]AttributeTerm, 0, len(parts))
	for _, p := range parts {
		t, err := parseAttributeTerm(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("node attribute expression %q: %w", expr, err)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

// andBody is the inside of AND(...), case as YARN takes it (any).
func andBody(s string) (string, bool) {
	if len(s) < 5 || !strings.EqualFold(s[:4], "AND(") || s[len(s)-1] != ')' {
		return "", false
	}
	return s[4 : len(s)-1], true
}

func parseAttributeTerm(p string) (AttributeTerm, error) {
	var t AttributeTerm
	name, value, ok := strings.Cut(p, "!=")
	if ok {
		t.Not = true
	} else if name, value, ok = strings.Cut(p, "="); !ok {
		return t, fmt.Errorf("%q compares nothing: write name=value or name!=value", p)
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	prefix, bare, hasPrefix := strings.Cut(name, "/")
	if !hasPrefix {
		prefix, bare = CentralAttributes, name
	} else if prefix != CentralAttributes && prefix != DistributedAttributes {
		return t, fmt.Errorf("attribute %q: prefix %q is neither %s nor %s", name, prefix, CentralAttributes, DistributedAttributes)
	}
	if err := checkAttributeText("name", bare, false); err != nil {
		return t, err
	}
	if err := checkAttributeText("value", value, true); err != nil {
		return t, fmt.Errorf("attribute %s: %w", bare, err)
	}
	t.Name, t.Value = prefix+"/"+bare, value
	return t, nil
}

// checkAttributeText holds a name to YARN's pattern,
// [0-9a-zA-Z][0-9a-zA-Z_-]*, or a value (dots allowed) to
// [0-9a-zA-Z][0-9a-zA-Z._-]*, of at most 255 characters.
func checkAttributeText(what, s string, dots bool) error {
	switch {
	case s == "":
		return fmt.Errorf("empty attribute %s", what)
	case len(s) > maxAttributeText:
		return fmt.Errorf("attribute %s of %d characters: at most %d", what, len(s), maxAttributeText)
	}
	for i, c := range s {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if alnum || i > 0 && (c == '_' || c == '-' || dots && c == '.') {
			continue
		}
		if dots {
			return fmt.Errorf("attribute %s %q: %q at %d; YARN takes a letter or digit first, then letters, digits, '.', '_', '-'", what, s, c, i)
		}
		return fmt.Errorf("attribute %s %q: %q at %d; YARN takes a letter or digit first, then letters, digits, '_', '-' (no '.': gpu_type, not gpu.type)", what, s, c, i)
	}
	return nil
}
