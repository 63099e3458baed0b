package browser

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sleeper starts a process that names a path under dir on its command
// line, as chromium's processes name their home, ended when t ends.
func sleeper(t *testing.T, dir string) *exec.Cmd {
	cmd := exec.Command("sleep", "60")
	cmd.Args[0] = filepath.Join(dir, "profile")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// The sweep ends a process that names a path under the browser's home
// even when nothing else would (a child left by a killed browser), and
// only such a process.
func TestEndProcessesUsingEndsOnlyTheHomes(t *testing.T) {
	home, elsewhere := t.TempDir(), t.TempDir()
	mine, other := sleeper(t, home), sleeper(t, elsewhere)
	if left := endProcessesUsing(home, 5*time.Second); len(left) > 0 {
		t.Fatalf("processes %v were not ended", left)
	}
	if err := mine.Wait(); err == nil || mine.ProcessState.Success() {
		t.Errorf("the process under the home was not killed: %v", err)
	}
	if n := len(processesUsing(elsewhere)); n != 1 || other.ProcessState != nil {
		t.Errorf("the sweep reached a process outside the home (%d left of it)", n)
	}
}

// Closing a browser one of whose processes is still there when its time
// is up fails the test, naming the process.
func TestCloseFailsWhenAProcessOutlivesIt(t *testing.T) {
	home := t.TempDir()
	left := sleeper(t, home)
	rec := &recorder{TB: t}
	b := &Browser{t: rec, home: home, stop: func() {}, output: &tail{}}
	b.closeWithin(0)
	if want := strconv.Itoa(left.Process.Pid); len(rec.errors) != 1 || !strings.Contains(rec.errors[0], want) {
		t.Errorf("closing with process %s left: the test was told %q", want, rec.errors)
	}
}

// recorder is a test that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Failed() bool        { return len(r.errors) > 0 }
func (r *recorder) Logf(string, ...any) {}
