package yarnapp

import (
	"fmt"
	"strings"
	"unicode"
)

// applicationTags reads spindle.yarn.tags: comma-separated, blanks
// dropped. YARN refuses a tag that is not ASCII or longer than 100
// characters: say so before submitting.
func applicationTags(list string) ([]string, error) {
	var tags []string
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if len(t) > 100 || strings.IndexFunc(t, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
			return nil, fmt.Errorf("spindle.yarn.tags: tag %q: YARN takes ASCII tags of at most 100 characters", t)
		}
		tags = append(tags, t)
	}
	return tags, nil
}
