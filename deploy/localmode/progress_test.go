package localmode

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/internal/latest"
)

// A terminal that takes nothing (its reader stopped) holds up nothing
// but the progress line: while it is stuck, the loop answers the UI's
// status and the job runs to its end.
func TestALocalJobRunsToItsEndThoughTheTerminalTakesNothing(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	conf, err := config.Load(nil, []string{"spindle.eventLog.enabled=false"})
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	l, dir, err := App(conf, log, Options{AppID: NewAppID(), Executors: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	// The task runs until the test opens its FIFO and closes it again.
	fifo := filepath.Join(t.TempDir(), "hold")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if l.Job, err = jobspec.Short("held", 1, []string{"cat", fifo}, jobspec.Defaults{}); err != nil {
		t.Fatal(err)
	}
	terminal, stuck := io.Pipe() // nobody reads terminal
	var once sync.Once
	writing := make(chan struct{})
	lines := latest.Start(func(p core.Progress) {
		once.Do(func() { close(writing) })
		fmt.Fprintf(stuck, "%s: %d/%d tasks\n", p.Job, p.Succeeded, p.Tasks)
	})
	l.Progress = lines.Put
	status := "http://" + l.UI.Addr().String() + "/status.json"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type ran struct {
		sum core.Summary
		err error
	}
	done := make(chan ran, 1)
	go func() {
		sum, err := Run(ctx, l)
		done <- ran{sum, err}
	}()
	<-writing // the first line, stuck for good

	// Opened for writing once the task has it open for reading: it runs.
	opened := make(chan *os.File, 1)
	go func() {
		hold, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
		}
		opened <- hold
	}()
	var hold *os.File
	select {
	case hold = <-opened:
	case <-time.After(time.Minute):
		t.Fatal("the task did not start while the terminal took nothing")
	}
	req, err := http.NewRequest("GET", status, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+l.UIOwner.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st core.Status
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || st.Running != 1 {
		t.Errorf("the loop's status while the terminal is stuck: %+v, %v; want its task running", st, err)
	}
	hold.Close()
	select {
	case r := <-done:
		if r.err != nil || !r.sum.Succeeded {
			t.Errorf("the job: %+v, %v; want it succeeded", r.sum, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the job did not end while the terminal took nothing")
	}
	terminal.Close() // the stuck line fails, and the feed ends
	lines.Close()
}
