package amtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Patience bounds every wait of the harness: for a message, a turn's
// state or Run's end. Past it the test fails, saying what it awaited.
const Patience = 20 * time.Second

// The secrets of the driver's two ports: executors authenticate with
// ExecutorSecret, a session's clients with ClientSecret.
var (
	ExecutorSecret = []byte("0123456789abcdef0123456789abcdef")
	ClientSecret   = []byte("fedcba9876543210fedcba9876543210")
)

// Driver is an am.Driver whose Run goes on in a goroutine of the test's:
// Start, StartSpec or StartSession began it, and its test's end cancels
// it and waits for it to return.
type Driver struct {
	*am.Driver
	clients string // where a session's clients connect
	cancel  context.CancelCauseFunc
	done    chan struct{} // closed when Run has returned
	result  Result
	turns   turns
	observe am.Observation // where its history goes, for TrackingPage
}

// Result is what Run returned.
type Result struct {
	Summary core.Summary
	Final   core.Final
	Err     error
}

// Failure is why the application did not succeed: Run's error, else the
// final diagnostics of an application that failed; nil when it
// succeeded.
func (r Result) Failure() error {
	if r.Err == nil && !r.Final.Succeeded {
		return errors.New(r.Final.Diagnostics)
	}
	return r.Err
}

// Start runs a driver on job, with one-core executors unless opts say
// otherwise.
func Start(t testing.TB, job *jobspec.Job, opts ...Option) *Driver {
	t.Helper()
	return start(t, job, newSetup(opts))
}

// StartSpec runs a driver on the job spec text spec.
func StartSpec(t testing.TB, spec string, opts ...Option) *Driver {
	t.Helper()
	job, err := jobspec.Parse([]byte(spec), "job.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	return Start(t, job, opts...)
}

// StartSession runs a session's driver, whose clients connect with
// ClientSecret (Driver.Client).
func StartSession(t testing.TB, opts ...Option) *Driver {
	t.Helper()
	s := newSetup(opts)
	s.cfg.Core.Session = true
	s.cfg.Clients = Listen(t, ClientSecret)
	return start(t, nil, s)
}

// Tasks is job "j" of n tasks running argv, each given one attempt.
func Tasks(t testing.TB, n int, argv ...string) *jobspec.Job {
	t.Helper()
	job, err := jobspec.Short("j", n, argv, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// start is the one way the harness runs a driver.
func start(t testing.TB, job *jobspec.Job, s *setup) *Driver {
	t.Helper()
	if s.cfg.Core.Profiles == nil {
		s.cfg.Core.Profiles = []scheduler.Profile{{Cores: 1}}
	}
	if s.cfg.Log == nil {
		s.cfg.Log = keptLog(t)
	}
	if s.rm != nil {
		s.cfg.YARN = s.rm.yarn(t, s.yarn...)
	}
	s.cfg.Executors = Listen(t, ExecutorSecret)
	d := &Driver{done: make(chan struct{}), observe: s.cfg.Observe}
	s.cfg.Turned = d.turns.turned
	var err error
	if d.Driver, err = am.New(s.cfg); err != nil {
		t.Fatal(err)
	}
	if s.cfg.Clients != nil {
		d.clients = s.cfg.Clients.Addr().String()
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	d.cancel = cancel
	go func() {
		defer close(d.done)
		r := &d.result
		r.Summary, r.Final, r.Err = d.Run(ctx, job, nil)
	}()
	t.Cleanup(func() {
		cancel(errors.New("the test ended"))
		select {
		case <-d.done:
		case <-time.After(Patience):
			t.Errorf("the driver's Run did not return within %v of its test's end", Patience)
		}
	})
	return d
}

// Listen listens on loopback for connections authenticated by secret,
// until the test ends (or Run closes the listener): a driver's port for
// executors or a session's clients.
func Listen(t testing.TB, secret []byte) *wire.Listener {
	t.Helper()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// Cancel cancels Run's context with cause, as an interrupt does: a job's
// tasks are killed and it ends, a session stops.
func (d *Driver) Cancel(cause error) { d.cancel(cause) }

// Done is closed once Run has returned.
func (d *Driver) Done() <-chan struct{} { return d.done }

// Wait waits for Run to return, and returns what it returned.
func (d *Driver) Wait(t testing.TB) Result {
	t.Helper()
	select {
	case <-d.done:
		return d.result
	case <-time.After(Patience):
		t.Fatalf("the driver's Run did not return within %v", Patience)
		return Result{}
	}
}
