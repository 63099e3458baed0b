package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/internal/suggest"
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
		if _, known := keyFor(written); known {
			return written, true, nil
		}
		return "", false, fmt.Errorf("unknown key %q%s", written, didYouMean(written))
	case strings.HasPrefix(written, sparkPrefix):
		name := spindlePrefix + strings.TrimPrefix(written, sparkPrefix)
		_, known := keyFor(name)
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
			if d := suggest.Distance(form, k.Name, bestDistance); d < bestDistance {
				best, bestDistance = k.Name, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}
