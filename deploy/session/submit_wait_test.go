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

// A session between attempts, or whose AM has just gone (nobody at its
// address), is found again until it takes the job, which it gets once;
// one that ended, or a job it refused, is not waited for; nor is a
// session that stays between attempts past the bound.
func TestSubmitWaitsForASessionBetweenAttempts(t *testing.T) {
	f := newFakeSession(t)
	job := &wire.SubmitJob{Spec: []byte("name: j")}
	gone := Client{Network: "unix", Addr: filepath.Join(t.TempDir(), "gone.sock"), Secret: testSecret}
	finds := []func() (Client, error){
		func() (Client, error) { return Client{}, ErrBetweenAttempts },
		func() (Client, error) { return gone, nil }, // the RM still names the AM that went
		func() (Client, error) { return f.client, nil },
	}
	calls, notices := 0, 0
	find := func(context.Context) (Client, error) {
		calls++
		return finds[min(calls, len(finds))-1]()
	}
	f.answer <- accepted(7)
	_, sub, err := SubmitWithin(context.Background(), context.Background(), find, job, time.Minute, func(string) { notices++ })
	if err != nil || sub.JobID != 7 {
		t.Fatalf("SubmitWithin: %v, %+v; want job 7 accepted", err, sub)
	}
	sub.Close()
	if calls != 3 || notices != 1 || len(f.got) != 1 {
		t.Errorf("found %d times, %d notices, the session got %d submits; want 3, 1 and 1", calls, notices, len(f.got))
	}

	for _, tc := range []struct {
		name   string
		find   error
		within time.Duration
	}{
		{"ended", ErrEnded, time.Minute},
		{"not found", errors.New("no session of that id"), time.Minute},
		{"between attempts too long", ErrBetweenAttempts, 0},
	} {
		calls = 0
		find := func(context.Context) (Client, error) { calls++; return Client{}, tc.find }
		_, _, err := SubmitWithin(context.Background(), context.Background(), find, job, tc.within, func(string) {})
		if !errors.Is(err, ErrNotSent) || !errors.Is(err, tc.find) || calls != 1 {
			t.Errorf("%s: %v after %d finds; want ErrNotSent wrapping %v after one", tc.name, err, calls, tc.find)
		}
	}

	f.answer <- &wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: "no pool x"}}}
	calls = 0
	find = func(context.Context) (Client, error) { calls++; return f.client, nil }
	if _, _, err := SubmitWithin(context.Background(), context.Background(), find, job, time.Minute, func(string) {}); !errors.Is(err, ErrRefused) || calls != 1 || !strings.Contains(err.Error(), "no pool x") {
		t.Errorf("a refused job: %v after %d finds; want ErrRefused after one", err, calls)
	}
}
