package amtest

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// Receive is the next message the driver sends the executor, or the
// error that ended its connection (io.EOF: the driver closed it). The
// test fails if nothing comes within Patience.
func (e *Executor) Receive(t testing.TB) (*wire.Envelope, error) {
	t.Helper()
	e.conn.SetReadDeadline(time.Now().Add(Patience))
	m, err := e.conn.Recv()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("executor %s: the driver sent nothing for %v", e.ID, Patience)
	}
	return m, err
}

// Next is the next message the driver sends the executor; the test fails
// if the connection ends first.
func (e *Executor) Next(t testing.TB) *wire.Envelope {
	t.Helper()
	m, err := e.Receive(t)
	if err != nil {
		t.Fatalf("executor %s: %v", e.ID, err)
	}
	return m
}

// Ended reads what the driver sends until it ends the connection, and
// returns the messages and the error that ended it (io.EOF: closed).
func (e *Executor) Ended(t testing.TB) ([]*wire.Envelope, error) {
	t.Helper()
	var got []*wire.Envelope
	for {
		m, err := e.Receive(t)
		if err != nil {
			return got, err
		}
		got = append(got, m)
	}
}

// Registered expects the driver's first answer, Registered.
func (e *Executor) Registered(t testing.TB) {
	t.Helper()
	if m := e.Next(t); m.GetRegistered() == nil {
		t.Fatalf("executor %s got %v; want Registered", e.ID, m)
	}
}

// Rejected expects the driver's first answer to refuse the executor, and
// returns why.
func (e *Executor) Rejected(t testing.TB) string {
	t.Helper()
	m := e.Next(t)
	if m.GetRejected() == nil {
		t.Fatalf("executor %s got %v; want Rejected", e.ID, m)
	}
	return m.GetRejected().GetReason()
}

// await reads on to the next message of the kind want picks, passing
// over the others; the test fails, saying it awaited what, if the
// connection ends first.
func (e *Executor) await(t testing.TB, what string, want func(*wire.Envelope) bool) *wire.Envelope {
	t.Helper()
	for {
		m, err := e.Receive(t)
		if err != nil {
			t.Fatalf("executor %s, awaiting %s: %v", e.ID, what, err)
		}
		if want(m) {
			return m
		}
	}
}

// Launches reads on to the next LaunchBatch and returns its launches.
func (e *Executor) Launches(t testing.TB) []*wire.Launch {
	t.Helper()
	return e.await(t, "a launch batch", func(m *wire.Envelope) bool { return m.GetLaunchBatch() != nil }).GetLaunchBatch().GetLaunches()
}

// Kill reads on to the next Kill.
func (e *Executor) Kill(t testing.TB) *wire.Kill {
	t.Helper()
	return e.await(t, "a kill", func(m *wire.Envelope) bool { return m.GetKill() != nil }).GetKill()
}

// Drain reads on to the next Drain.
func (e *Executor) Drain(t testing.TB) *wire.Drain {
	t.Helper()
	return e.await(t, "a drain", func(m *wire.Envelope) bool { return m.GetDrain() != nil }).GetDrain()
}

// Shutdown reads on to the next Shutdown.
func (e *Executor) Shutdown(t testing.TB) *wire.Shutdown {
	t.Helper()
	return e.await(t, "a shutdown", func(m *wire.Envelope) bool { return m.GetShutdown() != nil }).GetShutdown()
}

// PickPort reads on to the next PickPort (PortPicked answers it).
func (e *Executor) PickPort(t testing.TB) *wire.PickPort {
	t.Helper()
	return e.await(t, "a pick-port", func(m *wire.Envelope) bool { return m.GetPickPort() != nil }).GetPickPort()
}

// JobsEnded reads on to the next JobsEnded and returns the jobs it names.
func (e *Executor) JobsEnded(t testing.TB) []int64 {
	t.Helper()
	return e.await(t, "jobs ended", func(m *wire.Envelope) bool { return m.GetJobsEnded() != nil }).GetJobsEnded().GetJobIds()
}

// Credentials reads on to the next credentials file and returns its
// tokens.
func (e *Executor) Credentials(t testing.TB) []credentials.Token {
	t.Helper()
	m := e.await(t, "credentials", func(m *wire.Envelope) bool { return m.GetCredentials() != nil })
	creds, err := credentials.Read(bytes.NewReader(m.GetCredentials().GetFile()))
	if err != nil {
		t.Fatalf("executor %s's credentials: %v", e.ID, err)
	}
	return creds.Tokens
}
