package integration

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// dialSocket connects to the Unix socket path, however deep the test's
// state directory put it (through its directory's descriptor, as
// executor/wire does, when the path outgrows a socket address).
func dialSocket(t *testing.T, path string) net.Conn {
	t.Helper()
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	conn, err := net.DialTimeout("unix", fmt.Sprintf("/proc/self/fd/%d/%s", dir.Fd(), filepath.Base(path)), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// A local session serves many clients at once: tasks get exact GPU
// addresses; a job that fails and one that is cancelled touch no other; jobs are listed with their pool and
// state; nobody without the secret gets anything; stopping it ends it and
// everything it started.
func TestLocalSessionServesManyClients(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[2]", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.worker.resource.gpu.addresses=0,1", "--conf", "spindle.executor.resource.gpu.amount=1")
	dir, rec := u.sessionRecord(id)
	for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, filepath.Join(dir, "secret"): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v, %v; want mode %v", path, fi.Mode(), err, want)
		}
	}
	driver := int(rec["pid"].(float64))

	// Three clients at once: one job succeeds, one fails, one is left
	// running (--detach).
	gpus := filepath.Join(t.TempDir(), "gpus")
	ok, okOut := u.start("submit", "--session", id, "--name", "ok", "--task-gpus", "0.5", "--tasks", "4", "--", "sh", "-c", "echo $CUDA_VISIBLE_DEVICES >> "+gpus+"; sleep 0.5")
	bad, badOut := u.start("submit", "--session", id, "--name", "bad", "--conf", "spindle.task.maxFailures=1", "--tasks", "2", "--", "false")
	out, err := u.run("submit", "--session", id, "--name", "long", "--pool", "adhoc", "--detach", "--tasks", "1", "--", "sleep", "120")
	if err != nil || !strings.Contains(out, "submitted to session "+id) || !strings.Contains(out, `pool "adhoc"`) {
		t.Fatalf("detached submit: %v\n%s", err, out)
	}
	if err := ok.Wait(); err != nil || !strings.Contains(okOut.String(), "job ok SUCCEEDED") {
		t.Errorf("the good job: %v\n%s", err, okOut.String())
	}
	// Each task saw exactly one of its executor's GPUs.
	if got := strings.Fields(readFile(t, gpus)); len(got) != 4 || strings.Trim(strings.Join(got, ""), "01") != "" {
		t.Errorf("the tasks of half a GPU saw CUDA_VISIBLE_DEVICES %q, want one of 0 and 1 each", got)
	}
	if err := bad.Wait(); err == nil || !strings.Contains(badOut.String(), "job bad FAILED") {
		t.Errorf("the failing job: %v, want a non-zero exit\n%s", err, badOut.String())
	}
	out, err = u.run("jobs", id)
	for _, want := range []string{`ok\s+default\s+SUCCEEDED\s+4/4`, `bad\s+default\s+FAILED\s+0/2`, `long\s+adhoc\s+RUNNING\s+0/1`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("spindle jobs: %v; no line matches %s\n%s", err, want, out)
		}
	}
	jobID := regexp.MustCompile(`(?m)^(\d+)\s+long\s`).FindStringSubmatch(out)
	if jobID == nil {
		t.Fatalf("no job long in\n%s", out)
	}
	if out, err := u.run("cancel", id, jobID[1]); err != nil || !strings.Contains(out, "cancelled") {
		t.Errorf("cancel: %v\n%s", err, out)
	}
	if out, _ := u.run("jobs", id); !regexp.MustCompile(`long\s+adhoc\s+CANCELLED`).MatchString(out) || !regexp.MustCompile(`ok\s+default\s+SUCCEEDED`).MatchString(out) {
		t.Errorf("after the cancel:\n%s", out)
	}

	// The session's socket takes nothing unauthenticated, and is its
	// owner's alone.
	socket := rec["socket"].(string)
	if filepath.Dir(socket) != dir {
		t.Errorf("the session's socket %s is not in its directory %s", socket, dir)
	}
	conn := dialSocket(t, socket)
	conn.Write(append([]byte("SPWR\x01E"), bytes.Repeat([]byte{0}, 200)...))
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, _ := io.ReadAll(conn)
	conn.Close()
	if len(got) > 38 { // at most the session's hello
		t.Errorf("an unauthenticated peer read %d bytes", len(got))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if c, err := wire.Dial(ctx, "unix", socket, wire.NewSecret()); err == nil {
		c.Close()
		t.Error("a client with another secret connected")
	}

	// Its 2 executors, and the guards they keep for their next tasks.
	if running := applicationProcesses(id); len(running) < 2 {
		t.Errorf("the session runs %d processes, want its 2 executors at least: %v", len(running), running)
	}
	out, err = u.run("session", "stop", id)
	if err != nil || !strings.Contains(out, "session "+id+" stopped") {
		t.Fatalf("session stop: %v\n%s", err, out)
	}
	if alive(driver) {
		t.Errorf("the session's driver (pid %d) outlived session stop", driver)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the session's record %s outlived it", dir)
	}
	if left := applicationProcesses(id); len(left) > 0 {
		t.Errorf("processes of session %s left running: %v", id, left)
	}
	if out, err := u.run("jobs", id); err == nil || !strings.Contains(out, "no record of the session") {
		t.Errorf("jobs of a stopped session: %v\n%s", err, out)
	}
}

// Interrupting a client that follows its job cancels the job (off a
// terminal there is nobody to ask), and the session goes on.
func TestLocalSessionInterruptedClientCancelsItsJob(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]")
	cmd, out := u.start("submit", "--session", id, "--name", "held", "--tasks", "1", "--", "sleep", "120")
	waitFor(t, 30*time.Second, "the job to run", func() bool { return strings.Contains(out.String(), "submitted to session") })
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil || !strings.Contains(out.String(), "job held CANCELLED: by its submitter (interrupted)") {
		t.Errorf("the interrupted client: %v, want it to cancel its job and say so\n%s", err, out.String())
	}
	if jobs, err := u.run("jobs", id); err != nil || !regexp.MustCompile(`held\s+default\s+CANCELLED`).MatchString(jobs) {
		t.Errorf("after the interrupt: %v\n%s", err, jobs)
	}
	if res, err := u.run("submit", "--session", id, "--name", "after", "--tasks", "1", "--", "true"); err != nil || !strings.Contains(res, "job after SUCCEEDED") {
		t.Errorf("the session after an interrupted client: %v\n%s", err, res)
	}
}
