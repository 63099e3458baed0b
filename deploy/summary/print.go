package summary

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// Print prints how job s ended, its counts, its executors and where
// its task logs are (logDir).
func Print(w io.Writer, s core.Summary, logDir string) {
	status := "SUCCEEDED"
	switch {
	case s.Cancelled:
		status = "CANCELLED: " + strings.TrimPrefix(s.Reason, "cancelled: ")
	case !s.Succeeded:
		status = "FAILED: " + s.Reason
	}
	fmt.Fprintf(w, "job %s %s\n", s.Job, status)
	// A rate only of a job that ran all its tasks, for a measurable time.
	rate := ""
	if s.Succeeded && s.Duration >= time.Millisecond {
		rate = fmt.Sprintf(", %.0f tasks/s", float64(s.Tasks)/s.Duration.Seconds())
	}
	fmt.Fprintf(w, "  tasks %d, attempts %d, failed attempts %d, retries %d, duration %s%s\n",
		s.Tasks, s.Attempts, s.Failures, s.Retries, s.Duration.Round(time.Millisecond), rate)
	for _, e := range s.Executors {
		line := fmt.Sprintf("  executor %s on %s: %d succeeded, %d failed", e.ID, e.Host, e.Succeeded, e.Failed)
		if e.Lost != "" {
			line += "; lost: " + e.Lost
		}
		fmt.Fprintln(w, line)
	}
	if s.Rejected > 0 {
		fmt.Fprintf(w, "  %d connection(s) refused: failed authentication, or too many at once\n", s.Rejected)
	}
	fmt.Fprintf(w, "  task logs: %s\n", logDir)
	if n := len(s.OutputCut) + s.OutputCutMore; n > 0 {
		const shown = 5
		list := strings.Join(s.OutputCut[:min(n, shown)], ", ")
		if n > shown {
			list += fmt.Sprintf(" and %d more", n-shown)
		}
		fmt.Fprintf(w, "  output cut to its tail (spindle.task.log.maxBytes) in %d file(s), each saying so in its first line: %s\n", n, list)
	}
}
