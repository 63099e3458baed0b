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

// listen starts a session's listener on a Unix socket and returns its
// client and a way to take its next connection.
func listen(t *testing.T, name string) (Client, func() *wire.Conn) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	l, err := wire.Listen("unix", path, testSecret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	next := func() *wire.Conn {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := l.Accept(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	return Client{Network: "unix", Addr: path, Secret: testSecret}, next
}

func update(job int64, ended bool) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_JobUpdate{JobUpdate: &wire.JobUpdate{Job: &wire.JobInfo{Id: job}, Ended: ended}}}
}

// submitFollowed submits a followed job to the session that client
// reaches, which takes it as job 3 and sends one update; the session's
// connection is returned, to end as the test wants.
func submitFollowed(t *testing.T, client Client, next func() *wire.Conn) (*Submission, *wire.Conn) {
	t.Helper()
	subs := make(chan *Submission, 1)
	go func() {
		sub, err := client.Submit(context.Background(), context.Background(), &wire.SubmitJob{Follow: true})
		if err != nil {
			t.Error(err)
		}
		subs <- sub
	}()
	conn := next()
	if m, err := conn.Recv(); err != nil || m.GetSubmitJob() == nil {
		t.Fatalf("the session got %v, %v; want a job", m, err)
	}
	conn.Send(accepted(3))
	conn.Send(update(3, false))
	sub := <-subs
	if sub == nil {
		t.FailNow()
	}
	t.Cleanup(func() { sub.Close() })
	return sub, conn
}

func wait[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
	}
	t.Fatalf("no %s within 10 s", what)
	var none T
	return none
}

// A YARN session lost while its job is followed is found again, at its
// next attempt's address, and the job followed there to its end; the
// following says so as it goes.
func TestFollowJobFindsItsSessionAgain(t *testing.T) {
	first, firstConn := listen(t, "first.sock")
	second, secondConn := listen(t, "second.sock")
	sub, conn := submitFollowed(t, first, firstConn)
	notices := make(chan string, 4)
	refind := &Refind{Session: "application_1_0001", Notice: func(n string) { notices <- n },
		Find: func(context.Context) (Client, error) { return second, nil }}
	f := FollowJob(context.Background(), sub, refind)

	if u := wait(t, f.Updates, "update"); u.GetEnded() {
		t.Fatalf("first update %v: ended", u)
	}
	conn.Close() // the first attempt goes away
	if n := wait(t, notices, "notice"); n != "lost session application_1_0001 while following job 3; looking for its next attempt" {
		t.Errorf("notice %q", n)
	}
	again := secondConn()
	if m, err := again.Recv(); err != nil || m.GetFollowJob().GetJobId() != 3 {
		t.Fatalf("the next attempt got %v, %v; want job 3 followed", m, err)
	}
	again.Send(accepted(3))
	if c := wait(t, f.Moved, "move"); c.Addr != second.Addr {
		t.Errorf("moved to %s, want %s", c.Addr, second.Addr)
	}
	if n := wait(t, notices, "notice"); n != "following job 3 in session application_1_0001 again, at "+second.Addr {
		t.Errorf("notice %q", n)
	}
	again.Send(update(3, true))
	if u := wait(t, f.Updates, "update"); !u.GetEnded() {
		t.Errorf("last update %v: not ended", u)
	}
}

// Without a way to find it again (a local session), a lost session ends
// the following; with one, so does a session that has ended since.
func TestFollowJobFailsWhenTheSessionIsGone(t *testing.T) {
	for _, local := range []bool{true, false} {
		client, next := listen(t, "session.sock")
		sub, conn := submitFollowed(t, client, next)
		var refind *Refind
		if !local {
			refind = &Refind{Session: "application_1_0001", Notice: func(string) {},
				Find: func(context.Context) (Client, error) { return Client{}, ErrEnded }}
		}
		f := FollowJob(context.Background(), sub, refind)
		wait(t, f.Updates, "update")
		conn.Close()
		err := wait(t, f.Failed, "failure")
		if !errors.Is(err, ErrLost) || local == errors.Is(err, ErrEnded) {
			t.Errorf("local %v: following failed with %v", local, err)
		}
		if !local && !strings.Contains(err.Error(), "; then: ") {
			t.Errorf("the error %q does not say what came of looking again", err)
		}
	}
}

// Only a lost session is looked for again: a session that answers
// wrongly ends the following with what it did wrong.
func TestFollowJobLooksAgainOnlyForALostSession(t *testing.T) {
	client, next := listen(t, "session.sock")
	sub, conn := submitFollowed(t, client, next)
	refind := &Refind{Session: "application_1_0001", Notice: func(n string) { t.Errorf("notice %q", n) },
		Find: func(context.Context) (Client, error) {
			t.Error("looked for the session again")
			return Client{}, ErrEnded
		}}
	f := FollowJob(context.Background(), sub, refind)
	wait(t, f.Updates, "update")
	conn.Send(accepted(3))
	if err := wait(t, f.Failed, "failure"); errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "while following job 3") {
		t.Errorf("following failed with %v, want the session's wrong answer", err)
	}
}
