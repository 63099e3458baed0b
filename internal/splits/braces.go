package splits

import (
	"fmt"
	"strings"
)

// maxAlternatives bounds the patterns one pattern's {a,b} alternatives
// expand to: {a,b}{c,d}... multiplies, and each is walked.
const maxAlternatives = 1024

// expandBraces expands Hadoop's glob alternatives, {a,b} (nested, and
// across a /: {2024/01,2023/12}/*), into the patterns they stand for, in
// order; a pattern with none is itself. A backslash escapes a brace or a
// comma, as it does Match's meta characters.
func expandBraces(p string) ([]string, error) {
	open, depth := -1, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				return nil, fmt.Errorf("a } with no {")
			}
			if depth--; depth == 0 {
				return expandAt(p[:open], alternatives(p[open+1:i]), p[i+1:])
			}
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("a { with no }")
	}
	return []string{p}, nil
}

// expandAt expands each of prefix + alternative + rest.
func expandAt(prefix string, alts []string, rest string) ([]string, error) {
	var out []string
	for _, a := range alts {
		more, err := expandBraces(prefix + a + rest)
		if err != nil {
			return nil, err
		}
		if len(out)+len(more) > maxAlternatives {
			return nil, fmt.Errorf("more than %d alternatives", maxAlternatives)
		}
		out = append(out, more...)
	}
	return out, nil
}

// alternatives splits the inside of a brace at its own commas, not those
// of braces nested in it.
func alternatives(s string) []string {
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				alts = append(alts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(alts, s[start:])
}

func hasBraces(p string) bool { return strings.ContainsAny(p, "{}") }
