package summary

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
)

// The summary counts retries as they happened: a job that failed before
// all its tasks ran has had retries though it made fewer attempts than it
// has tasks.
func TestSummaryCountsRetriesAsTheyHappened(t *testing.T) {
	var b strings.Builder
	Print(&b, core.Summary{Job: "j", Reason: "task 0 failed 3 times", Tasks: 4, Attempts: 3, Failures: 3, Retries: 2}, "/logs")
	if want := "tasks 4, attempts 3, failed attempts 3, retries 2,"; !strings.Contains(b.String(), want) {
		t.Fatalf("summary:\n%s\nwant %q", b.String(), want)
	}
}

// The summary counts the cut output files it was not given the names of.
func TestSummaryCountsCutFilesNotListed(t *testing.T) {
	var b strings.Builder
	Print(&b, core.Summary{Job: "j", Succeeded: true, OutputCut: []string{"a", "b", "c", "d", "e", "f"}, OutputCutMore: 94}, "/logs")
	if want := "in 100 file(s), each saying so in its first line: a, b, c, d, e and 95 more"; !strings.Contains(b.String(), want) {
		t.Fatalf("summary:\n%s\nwant %q", b.String(), want)
	}
}
