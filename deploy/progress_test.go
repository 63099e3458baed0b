package deploy

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
	printSummary(&b, core.Summary{Job: "j", Reason: "task 0 failed 3 times", Tasks: 4, Attempts: 3, Failures: 3, Retries: 2}, "/logs")
	if want := "tasks 4, attempts 3, failed attempts 3, retries 2,"; !strings.Contains(b.String(), want) {
		t.Fatalf("summary:\n%s\nwant %q", b.String(), want)
	}
}
