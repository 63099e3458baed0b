package deploy

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// progressPrinter shows a job's progress: a bar redrawn in place on a
// terminal, plain lines (at most one a second) otherwise.
type progressPrinter struct {
	w        io.Writer
	terminal bool
	last     core.Progress
	lastLine time.Time
	drawn    bool
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	return &progressPrinter{w: w, terminal: isTerminal(w)}
}

// isTerminal reports whether w is a terminal (a character device), where a
// line can be redrawn in place with \r.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progressPrinter) update(pr core.Progress) {
	changed := pr.Succeeded != p.last.Succeeded || pr.Running != p.last.Running || pr.Failed != p.last.Failed
	p.last = pr
	if p.terminal {
		const width = 30
		done := 0
		if pr.Tasks > 0 {
			done = width * pr.Succeeded / pr.Tasks
		}
		fmt.Fprintf(p.w, "\r%s %s %d/%d tasks, %d running, %d failed, %d executors, %s ",
			pr.Job, bar(done, width), pr.Succeeded, pr.Tasks, pr.Running, pr.Failed, pr.Executors, pr.Elapsed.Round(time.Second))
		p.drawn = true
		return
	}
	if changed && time.Since(p.lastLine) >= time.Second {
		p.lastLine = time.Now()
		fmt.Fprintf(p.w, "%s: %d/%d tasks done, %d running, %d failed attempts, %d executors\n",
			pr.Job, pr.Succeeded, pr.Tasks, pr.Running, pr.Failed, pr.Executors)
	}
}

// bar draws a progress bar of width cells, done of them filled:
// "[=====     ]".
func bar(done, width int) string {
	return "[" + strings.Repeat("=", done) + strings.Repeat(" ", width-done) + "]"
}

// finish ends the bar's line.
func (p *progressPrinter) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

func printSummary(w io.Writer, s core.Summary, logDir string) {
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
