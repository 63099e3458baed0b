package amtest

import (
	"context"
	"sync"
	"testing"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// Executor is a fake executor, connected to a driver over the wire
// protocol on loopback, that the test plays message by message. It reads
// only when the test asks it for a message (or while it Serves): one that
// is not asked stalls, as a stopped process does, and the driver's writes
// to it back up.
type Executor struct {
	ID   string
	conn *wire.Conn
	// quit stops the goroutines BeatEvery and Serve start; running
	// counts them.
	quit    chan struct{}
	running sync.WaitGroup
	vanish  sync.Once
}

// ExecutorOption changes what an executor says in its Register.
type ExecutorOption func(*wire.Register)

// Cores is how many cores the executor has (1 unless set).
func Cores(n int32) ExecutorOption { return func(r *wire.Register) { r.Cores = n } }

// Host is the executor's host ("h1" unless set).
func Host(h string) ExecutorOption { return func(r *wire.Register) { r.Host = h } }

// GPUs are the executor's GPU addresses.
func GPUs(addresses ...string) ExecutorOption {
	return func(r *wire.Register) { r.GpuAddresses = addresses }
}

// Accelerator gives the executor the addresses of an accelerator besides
// GPUs ("fpga").
func Accelerator(name string, addresses ...string) ExecutorOption {
	return func(r *wire.Register) {
		r.Resources = append(r.Resources, &wire.Resource{Name: name, Addresses: addresses})
	}
}

// RejoinAddress is where the executor listens for the AM's next attempt:
// the journal records it.
func RejoinAddress(addr string) ExecutorOption {
	return func(r *wire.Register) { r.RejoinAddress = addr }
}

// Rejoining registers the executor as one rejoining a driver (the AM's
// next attempt), still running attempts.
func Rejoining(running ...*wire.RunningAttempt) ExecutorOption {
	return func(r *wire.Register) { r.Rejoining, r.Running = true, running }
}

// Register connects an executor to the driver and sends its Register; it
// does not wait for the answer (Registered, Rejected). Its connection
// closes when the test ends.
func (d *Driver) Register(t testing.TB, id string, opts ...ExecutorOption) *Executor {
	t.Helper()
	reg := &wire.Register{ExecutorId: id, Host: "h1", Cores: 1}
	for _, o := range opts {
		o(reg)
	}
	e := &Executor{ID: id, conn: d.Dial(t), quit: make(chan struct{})}
	t.Cleanup(e.Vanish)
	e.Send(t, &wire.Envelope{Message: &wire.Envelope_Register{Register: reg}})
	return e
}

// Dial opens an authenticated connection to the driver's executor port
// and sends nothing on it. It closes when the test ends.
func (d *Driver) Dial(t testing.TB) *wire.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.Addr(), ExecutorSecret)
	if err != nil {
		t.Fatalf("dialling the driver: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// Send sends m to the driver.
func (e *Executor) Send(t testing.TB, m *wire.Envelope) {
	t.Helper()
	if err := e.conn.Send(m); err != nil {
		t.Fatalf("executor %s: %v", e.ID, err)
	}
}

// Vanish drops the executor's connection with no word, as a host that
// went away, and stops its heartbeats and serving.
func (e *Executor) Vanish() {
	e.vanish.Do(func() {
		close(e.quit)
		e.conn.Close()
		e.running.Wait()
	})
}
