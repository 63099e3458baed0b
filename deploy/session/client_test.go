package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

var testSecret = []byte("spindle-session-test-0123456789a")

// fakeSession answers submits on a Unix socket: each request is handed to
// got, and answered with what the test sends on answer.
type fakeSession struct {
	client Client
	got    chan *wire.Envelope
	answer chan *wire.Envelope
}

func newFakeSession(t *testing.T) *fakeSession {
	t.Helper()
	path := filepath.Join(t.TempDir(), "client.sock")
	l, err := wire.Listen("unix", path, testSecret)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); l.Close() })
	f := &fakeSession{client: Client{Network: "unix", Addr: path, Secret: testSecret}, got: make(chan *wire.Envelope, 4), answer: make(chan *wire.Envelope, 4)}
	go func() {
		for {
			conn, err := l.Accept(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				continue
			}
			go func() {
				defer conn.Close()
				m, err := conn.Recv()
				if err != nil {
					return
				}
				f.got <- m
				select {
				case a := <-f.answer:
					conn.Send(a)
				case <-ctx.Done():
				}
			}()
		}
	}()
	return f
}

func accepted(id int64) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_JobAccepted{JobAccepted: &wire.JobAccepted{JobId: id}}}
}

// A Submit whose context ends before its job is sent sends nothing; once
// the job is sent, the context no longer matters: Submit waits for the
// session's answer, so that its caller learns the job it may have to
// cancel, until abort ends.
func TestSubmitGivesUpOnlyBeforeTheJobIsSent(t *testing.T) {
	f := newFakeSession(t)
	job := &wire.SubmitJob{Spec: []byte("name: j"), Follow: false}

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.client.Submit(ended, context.Background(), job); !errors.Is(err, ErrNotSent) {
		t.Errorf("Submit with its context ended: %v, want ErrNotSent", err)
	}
	select {
	case m := <-f.got:
		t.Fatalf("the session got %v from a Submit that gave up", m)
	case <-time.After(100 * time.Millisecond):
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var sub *Submission
	go func() {
		var err error
		sub, err = f.client.Submit(ctx, context.Background(), job)
		done <- err
	}()
	<-f.got
	cancel() // after the job went out
	f.answer <- accepted(7)
	if err := <-done; err != nil || sub.JobID != 7 {
		t.Fatalf("Submit given up after its job was sent: %v; want job 7 all the same", err)
	}

	abort, stop := context.WithCancelCause(context.Background())
	go func() {
		_, err := f.client.Submit(context.Background(), abort, job)
		done <- err
	}()
	<-f.got
	stop(errors.New("a second interrupt"))
	if err := <-done; err == nil || !strings.Contains(err.Error(), "it may have taken the job") || !strings.Contains(err.Error(), "a second interrupt") {
		t.Errorf("Submit aborted waiting for the answer: %v", err)
	}
}
