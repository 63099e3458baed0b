// Package srctest is what the source checks' tests share: findings as
// the lines the checks print, and those lines held to what a test
// expects.
package srctest

import (
	"fmt"
	"strings"
	"testing"
)

// Lines are findings as a check prints them, one each.
func Lines[F fmt.Stringer](findings []F) []string {
	out := make([]string, 0, len(findings))
	for _, f := range findings {
		out = append(out, f.String())
	}
	return out
}

// ExpectPrefixes fails t unless got has as many lines as want, each
// starting with its want: a finding's place and what it found, the
// advice after it aside.
func ExpectPrefixes(t testing.TB, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d: %q, want it to start %q", i, got[i], want[i])
		}
	}
}
