package executor

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// fakeDriver plays the ApplicationMaster for one executor: its first
// attempt, whose registration it accepts, and the next ones, which dial
// the executor's rejoin address as the AM's adoption does.
type fakeDriver struct {
	t      *testing.T
	ctx    context.Context
	secret []byte
	conn   *wire.Conn
	first  *wire.Register // the executor's first registration
	served <-chan error
	log    *logWatch
	dir    string // the executor's log and work directory
}

// startExecutor runs Serve for an executor with rejoinTimeout on
// 127.0.0.1 (and what opts change) against a fakeDriver, which accepts
// its registration.
func startExecutor(t *testing.T, ctx context.Context, rejoinTimeout time.Duration, opts ...func(*Config)) *fakeDriver {
	t.Helper()
	d := &fakeDriver{t: t, ctx: ctx, secret: wire.NewSecret(), log: &logWatch{}, dir: t.TempDir()}
	log := logrus.New()
	log.SetOutput(io.Discard)
	log.AddHook(d.log)
	cfg := Config{ID: "container_1_0001_01_000002", AppID: "application_1_0001", Host: "127.0.0.1", Cores: 4, Secret: d.secret,
		LogDir: d.dir, WorkDir: d.dir, RejoinTimeout: rejoinTimeout, Heartbeat: time.Hour, Log: log}
	for _, o := range opts {
		o(&cfg)
	}
	ln, err := wire.Listen("tcp", "127.0.0.1:0", d.secret)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cfg.DriverAddr = ln.Addr().String()
	served := make(chan error, 1)
	d.served = served
	go func() { served <- Serve(ctx, cfg) }()
	if d.conn, err = ln.Accept(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.conn.Close() })
	d.first = d.recv().GetRegister()
	if d.first == nil {
		t.Fatal("the executor's first message is not a Register")
	}
	d.send(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
	return d
}

func (d *fakeDriver) send(m *wire.Envelope) {
	d.t.Helper()
	if err := d.conn.Send(m); err != nil {
		d.t.Fatal(err)
	}
}

// recv reads the next message, waiting 10s at most: a test fails rather
// than hangs.
func (d *fakeDriver) recv() *wire.Envelope {
	d.t.Helper()
	d.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	m, err := d.conn.Recv()
	if err != nil {
		d.t.Fatalf("the driver's connection: %v", err)
	}
	return m
}

// launch sends launches in one batch.
func (d *fakeDriver) launch(launches ...*wire.Launch) {
	d.t.Helper()
	d.send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: launches}}})
}

// drop ends the driver's connection without a Shutdown, as a driver that
// dies does.
func (d *fakeDriver) drop() { d.conn.Close() }

// dial connects to the executor's rejoin address as the next attempt does.
func (d *fakeDriver) dial(secret []byte) (*wire.Conn, error) {
	ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
	defer cancel()
	return wire.Dial(ctx, "tcp", d.first.GetRejoinAddress(), secret)
}

// rejoin dials the executor as the next attempt and returns the Register
// it sends over that connection, unanswered.
func (d *fakeDriver) rejoin() *wire.Register {
	d.t.Helper()
	c, err := d.dial(d.secret)
	if err != nil {
		d.t.Fatalf("dialing the executor's rejoin address: %v", err)
	}
	d.conn = c
	d.t.Cleanup(func() { c.Close() })
	reg := d.recv().GetRegister()
	if reg == nil {
		d.t.Fatal("the executor's first message to a new driver is not a Register")
	}
	return reg
}

// accept answers a Register with Registered.
func (d *fakeDriver) accept() {
	d.t.Helper()
	d.send(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
}

// statuses reads until n statuses came, skipping heartbeats.
func (d *fakeDriver) statuses(n int) []*wire.Status {
	d.t.Helper()
	var got []*wire.Status
	for len(got) < n {
		got = append(got, d.recv().GetStatusBatch().GetStatuses()...)
	}
	return got
}

// shutdown ends the executor in order and checks Serve returned nil.
func (d *fakeDriver) shutdown() {
	d.t.Helper()
	d.send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "job done"}}})
	if err := d.result(); err != nil {
		d.t.Fatalf("Serve after a Shutdown: %v", err)
	}
}

// result waits for Serve's result.
func (d *fakeDriver) result() error {
	d.t.Helper()
	select {
	case err := <-d.served:
		return err
	case <-d.ctx.Done():
		d.t.Fatal("Serve did not return")
		return nil
	}
}

// waitingTask is a task that writes its pid to NAME.pid and runs until
// NAME.go exists, then exits 0.
func (d *fakeDriver) waitingTask(name string, stageID int64, index int32) *wire.Launch {
	p := filepath.Join(d.dir, name)
	return &wire.Launch{JobId: 3, StageId: stageID, StageIndex: 1, TaskIndex: index, Attempt: 2, Job: "j", Stage: "s", TaskCount: 8,
		GpuAddresses: []string{"1"}, Cpus: 2,
		Argv: []string{"sh", "-c", "echo $$ > " + p + ".pid; while [ ! -e " + p + ".go ]; do sleep 0.02; done"}}
}

// release lets waitingTask name end.
func (d *fakeDriver) release(name string) {
	d.t.Helper()
	if err := os.WriteFile(filepath.Join(d.dir, name+".go"), nil, 0o644); err != nil {
		d.t.Fatal(err)
	}
}

// pid waits for waitingTask name to start and returns its pid.
func (d *fakeDriver) pid(name string) int {
	d.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(filepath.Join(d.dir, name+".pid"))
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			return pid
		}
	}
	d.t.Fatalf("task %s did not start", name)
	return 0
}

// logWatch keeps the messages an executor logs, for a test to wait on.
type logWatch struct {
	mu   sync.Mutex
	msgs []string
}

func (w *logWatch) Levels() []logrus.Level { return logrus.AllLevels }

func (w *logWatch) Fire(e *logrus.Entry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, e.Message)
	return nil
}

// count is how many times msg was logged.
func (w *logWatch) count(msg string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, m := range w.msgs {
		if m == msg {
			n++
		}
	}
	return n
}

// waitFor waits until msg was logged n times.
func (w *logWatch) waitFor(t *testing.T, msg string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); w.count(msg) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%q logged %d times, want %d", msg, w.count(msg), n)
		}
	}
}
