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
// terminal, plain lines (at most one a second) otherwise. It writes as
// it is called: local mode calls it through internal/latest, off the
// driver's loop.
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
