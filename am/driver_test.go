package am

import (
	"context"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// fakeExecutor registers with d over the wire protocol and returns its
// connection once the driver has sent it its first tasks.
func fakeExecutor(t *testing.T, d *Driver, id string) *wire.Conn {
	t.Helper()
	conn := dialExecutor(t, d, id, 1)
	for {
		m, err := conn.Recv()
		if err != nil {
			t.Fatalf("executor %s: %v", id, err)
		}
		if m.GetLaunchBatch() != nil {
			return conn
		}
	}
}

// runDriver runs a one-task job on d; it returns the summary when the job
// ends.
func runDriver(t *testing.T, cfg Config, maxAttempts int) (*Driver, <-chan core.Summary) {
	t.Helper()
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: maxAttempts})
	if err != nil {
		t.Fatal(err)
	}
	return runJob(t, cfg, job)
}

// runJob starts a driver of one-core executors on job; the channel gets
// its summary when the job ends.
func runJob(t *testing.T, cfg Config, job *jobspec.Job) (*Driver, <-chan core.Summary) {
	t.Helper()
	cfg.Core.Profiles, cfg.Executors = []scheduler.Profile{{Cores: 1}}, listen(t, testSecret)
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan core.Summary, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		sum, _, _ := d.Run(ctx, job, nil)
		out <- sum
	}()
	return d, out
}

// listen listens for executors on the loopback interface, until the test
// ends (or Run closes it).
func listen(t *testing.T, secret []byte) *wire.Listener {
	t.Helper()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

func status(t *testing.T, d *Driver) core.Status {
	t.Helper()
	st, err := d.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Without LossReasonWait (local mode) a closed connection is a blameless
// loss at once.
func TestDriverLossIsImmediateWithoutWait(t *testing.T) {
	d, _ := runDriver(t, Config{}, 1)
	conn := fakeExecutor(t, d, "e1")
	conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	for st := status(t, d); len(st.Executors) != 0 || st.Pending != 1; st = status(t, d) {
		if time.Now().After(deadline) {
			t.Fatalf("state %+v; want the executor gone and its task pending", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
