package config

import (
	"errors"
	"fmt"
	"strings"
)

const (
	spindlePrefix = "spindle."
	sparkPrefix   = "spark."
)

// canonicalKey maps a key as written to its registry name. A spark.* key
// Spindle does not know gives ok false and no error: the caller collects it.
// Any other key that is not in the registry is an error, with a
// did-you-mean where one is near.
func canonicalKey(written string) (name string, ok bool, err error) {
	switch {
	case written == "":
		return "", false, errors.New("a value with no key")
	case strings.HasPrefix(written, spindlePrefix):
		if _, known := byName[written]; known {
			return written, true, nil
		}
		return "", false, fmt.Errorf("unknown key %q%s", written, didYouMean(written))
	case strings.HasPrefix(written, sparkPrefix):
		name := spindlePrefix + strings.TrimPrefix(written, sparkPrefix)
		_, known := byName[name]
		return name, known, nil
	}
	return "", false, fmt.Errorf("key %q is not a Spindle key: keys start with %s (or %s for Spark's spelling)%s",
		written, spindlePrefix, sparkPrefix, didYouMean(written))
}

// maxSuggestDistance is the largest edit distance a did-you-mean spans: a
// typo or two, not a different key.
const maxSuggestDistance = 3

// didYouMean names the registry key nearest to written, as a clause to end a
// message with, or is "" when none is near. A key differing only in case is
// nearest of all; a key written without its spindle. prefix is also compared
// as if it had one.
func didYouMean(written string) string {
	forms := []string{written, spindlePrefix + written}
	best, bestDistance := "", maxSuggestDistance+1
	for _, k := range registry {
		if strings.EqualFold(written, k.Name) {
			return fmt.Sprintf("; did you mean %s? (keys are case-sensitive)", k.Name)
		}
		for _, form := range forms {
			if d := editDistance(form, k.Name, bestDistance); d < bestDistance {
				best, bestDistance = k.Name, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}

// editDistance is the Levenshtein distance between a and b, or limit when it
// is limit or more; the bound keeps a long hostile key from costing
// len(a)*len(b) against every registry key.
func editDistance(a, b string, limit int) int {
	if len(a)-len(b) >= limit || len(b)-len(a) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
