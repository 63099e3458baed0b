package deploy

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/internal/latest"
)

// slowTerminal takes nothing until the test lets it (let closes);
// started closes when the first write begins.
type slowTerminal struct {
	started, let chan struct{}
	once         sync.Once
	buf          bytes.Buffer
}

func (w *slowTerminal) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.started) })
	<-w.let
	return w.buf.Write(p)
}

// Local mode's progress goes to the terminal off the loop: while the
// terminal is slow to take a line, the loop's updates never wait, and
// the terminal then gets the newest, in the bar's format, and the bar's
// line ends.
func TestASlowTerminalGetsTheNewestProgress(t *testing.T) {
	w := &slowTerminal{started: make(chan struct{}), let: make(chan struct{})}
	p := &progressPrinter{w: w, terminal: true}
	lines := latest.Start(p.update)
	lines.Put(core.Progress{Job: "j", Tasks: 100, Succeeded: 1, Executors: 2, Elapsed: time.Second})
	<-w.started
	put := make(chan struct{})
	go func() {
		for i := 2; i <= 100; i++ {
			lines.Put(core.Progress{Job: "j", Tasks: 100, Succeeded: i, Executors: 2, Elapsed: time.Duration(i) * time.Second})
		}
		close(put)
	}()
	select {
	case <-put:
	case <-time.After(10 * time.Second):
		t.Fatal("the progress updates waited for the terminal")
	}
	close(w.let)
	lines.Close()
	p.finish()
	want := "\rj [" + strings.Repeat(" ", 30) + "] 1/100 tasks, 0 running, 0 failed, 2 executors, 1s " +
		"\rj [" + strings.Repeat("=", 30) + "] 100/100 tasks, 0 running, 0 failed, 2 executors, 1m40s \n"
	if got := w.buf.String(); got != want {
		t.Errorf("the terminal got\n%q\nwant the first line, then only the newest\n%q", got, want)
	}
}
