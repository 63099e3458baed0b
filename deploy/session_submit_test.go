package deploy

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// An interrupt that comes after the job went to the session, but before
// the session said it took it, leaves no job behind: the client waits for
// the answer, and cancels the job the session took; a cancel the session
// refuses is said to have failed.
func TestInterruptWhileSubmittingCancelsTheJobTheSessionTook(t *testing.T) {
	for _, refused := range []bool{false, true} {
		interruptWhileSubmitting(t, refused)
	}
}

func interruptWhileSubmitting(t *testing.T, cancelRefused bool) {
	id, l := localSessionListening(t)
	// Unbuffered: a signal sent has been heard.
	sigs := make(chan os.Signal)
	defer func(old func() (<-chan os.Signal, func())) { submitSignals = old }(submitSignals)
	submitSignals = func() (<-chan os.Signal, func()) { return sigs, func() {} }

	done := make(chan error, 1)
	go func() {
		_, _, err := runSplit("submit", "--session", id, "--tasks", "1", "--", "true")
		done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := l.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := conn.Recv(); err != nil || m.GetSubmitJob() == nil {
		t.Fatalf("the session got %v, %v; want the job", m, err)
	}
	select {
	case sigs <- syscall.SIGINT: // the client hears it before the answer comes
	case <-ctx.Done():
		t.Fatal("the client does not hear its signals while it waits for the session's answer")
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_JobAccepted{JobAccepted: &wire.JobAccepted{JobId: 7}}})
	conn.Close()

	conn, err = l.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := conn.Recv()
	if err != nil || m.GetCancelJob().GetJobId() != 7 || !strings.Contains(m.GetCancelJob().GetReason(), "interrupt while submitting") {
		t.Fatalf("the session got %v, %v; want job 7 cancelled", m, err)
	}
	want := "job 7, which session " + id + " took meanwhile, is cancelled"
	if cancelRefused {
		conn.Send(&wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: "no"}}})
		want = "and job 7, which session " + id + " took meanwhile, could not be cancelled: the session refused: no"
	} else {
		conn.Send(&wire.Envelope{Message: &wire.Envelope_JobList{JobList: &wire.JobList{Jobs: []*wire.JobInfo{{Id: 7, State: "CANCELLED"}}}}})
	}
	conn.Close()
	if err := <-done; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the client: %v; want %q", err, want)
	}
}

// A signal that came before the submit listened for its own (to the
// command's context: InterruptContext) is its first: it gives up at
// once, sending nothing, rather than submit as if none had come.
func TestASignalBeforeTheSubmitListenedGivesUp(t *testing.T) {
	id, _ := localSessionListening(t) // a session to send to, which nothing should reach
	defer func(old func() (<-chan os.Signal, func())) { submitSignals = old }(submitSignals)
	submitSignals = func() (<-chan os.Signal, func()) { return make(chan os.Signal), func() {} }
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(Interrupted{syscall.SIGINT})
	done := make(chan error, 1)
	go func() {
		app := NewApp()
		var out, errOut strings.Builder
		app.Writer, app.ErrWriter = &out, &errOut
		done <- app.RunContext(ctx, []string{"spindle", "submit", "--session", id, "--tasks", "1", "--", "true"})
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted by interrupt: nothing was submitted") {
			t.Errorf("the submit: %v; want it to give up, nothing submitted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the submit went on as if no signal had come: it waits for the session's answer")
	}
}

// localSessionListening records a local session of this process, in a
// state directory of the test's own, and listens on its socket as its
// driver would; the test answers what comes.
func localSessionListening(t *testing.T) (string, *wire.Listener) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	const id = "local-1-abc"
	secret := wire.NewSecret()
	if _, err := session.Create(id, secret); err != nil {
		t.Fatal(err)
	}
	socket, err := session.SocketPath(id)
	if err != nil {
		t.Fatal(err)
	}
	l, err := wire.Listen("unix", socket, secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := session.Save(session.Record{ID: id, Master: "local[1]", Socket: socket, PID: os.Getpid(), Log: "/nonexistent/driver.log"}); err != nil {
		t.Fatal(err)
	}
	return id, l
}
