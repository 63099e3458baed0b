package deploy

import (
	"slices"
	"strings"
	"testing"
)

func TestApplicationTags(t *testing.T) {
	got, err := applicationTags(" team-a, nightly,,GPU ")
	if err != nil || !slices.Equal(got, []string{"team-a", "nightly", "GPU"}) {
		t.Fatalf("applicationTags = %q, %v", got, err)
	}
	if got, err := applicationTags(""); err != nil || got != nil {
		t.Fatalf("no tags: %q, %v", got, err)
	}
	for _, bad := range []string{"ok,équipe", strings.Repeat("x", 101)} {
		if _, err := applicationTags(bad); err == nil || !strings.Contains(err.Error(), "spindle.yarn.tags: tag") {
			t.Errorf("applicationTags(%q) = %v, want an error naming the key and the tag", bad, err)
		}
	}
}
