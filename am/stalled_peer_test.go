package am

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// stalledHeartbeat is the heartbeat timeout of the stalled-peer test: short,
// so that the test waits for it, not for a default meant for clusters.
const stalledHeartbeat = 2 * time.Second

// An executor that stops reading (stopped, say, as by SIGSTOP: it sends
// nothing either) while the driver has more to send it than the sockets
// hold does not hold up the loop: another executor gets its tasks and the
// job succeeds, the stalled one is lost at the heartbeat timeout and its
// tasks run again elsewhere, and the driver hangs up on it.
func TestStalledExecutorDoesNotHoldUpTheLoop(t *testing.T) {
	// Eight launches of 1.5 MB each make a 12 MB batch: more than a
	// loopback socket's buffers take from a peer that does not read.
	argv := []string{"true"}
	for range 15 {
		argv = append(argv, strings.Repeat("x", 100_000))
	}
	job, err := jobspec.Short("j", 9, argv, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	log, cut := cutOffLog()
	d, done := runJob(t, Config{Core: core.Config{HeartbeatTimeout: stalledHeartbeat}, Log: log}, job)

	start := time.Now()
	stalled := dialExecutor(t, d, "stalled", 8)
	// Registered from 8 cores before the other, the stalled executor gets
	// eight tasks: the batch the driver cannot finish writing.
	waitRegistered(t, d, 1)
	healthy := dialExecutor(t, d, "healthy", 1)
	stopBeats := heartbeat(healthy)
	defer stopBeats()
	go succeedEvery(healthy)

	select {
	case sum := <-done:
		took := time.Since(start)
		if !sum.Succeeded {
			t.Fatalf("summary %+v; want the job done", sum)
		}
		if limit := stalledHeartbeat + 3*time.Second; took > limit {
			t.Errorf("the job took %v; want it done within the heartbeat timeout and a few seconds (%v)", took, limit)
		}
		if lost := executorSummary(sum, "stalled").Lost; lost == "" {
			t.Errorf("summary %+v; want the stalled executor lost", sum)
		}
		if n := executorSummary(sum, "healthy").Succeeded; n != 9 {
			t.Errorf("the healthy executor ran %d tasks; want all 9, the stalled one's too", n)
		}
	case <-time.After(stalledHeartbeat + 10*time.Second):
		t.Fatal("the job did not end: the loop waits on the stalled executor")
	}

	// The driver hung up on it, mid-batch: once its write outlasted the
	// heartbeat timeout, not when the peer read again.
	select {
	case x := <-cut:
		if x != "stalled" {
			t.Fatalf("executor %s cut off; want the stalled one", x)
		}
	case <-time.After(stalledHeartbeat + 5*time.Second):
		t.Fatal("the stalled executor was not cut off")
	}
	stalled.SetReadDeadline(time.Now().Add(5 * time.Second))
	if m, err := stalled.Recv(); err != nil || m.GetRegistered() == nil {
		t.Fatalf("the stalled executor reads %v, %v; want Registered", m, err)
	}
	if m, err := stalled.Recv(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the stalled executor reads %v, %v; want the batch cut short", m, err)
	}
}

// cutOffLog returns a logger (quiet) and the channel it reports on which
// executors are cut off.
func cutOffLog() (logrus.FieldLogger, <-chan string) {
	log := logrus.New()
	log.SetOutput(io.Discard)
	cut := cutOffs(make(chan string, 16))
	log.AddHook(cut)
	return log, cut
}

// cutOffs is a log hook that reports each executor cut off.
type cutOffs chan string

func (cutOffs) Levels() []logrus.Level { return []logrus.Level{logrus.WarnLevel} }

func (c cutOffs) Fire(e *logrus.Entry) error {
	if strings.HasPrefix(e.Message, "cut off") {
		c <- fmt.Sprint(e.Data["executor"])
	}
	return nil
}

// dialExecutor connects and registers an executor of cores cores, and
// reads nothing. The connection is closed when the test ends: a driver
// whose job waits on it ends, and so do its connection's goroutines.
func dialExecutor(t *testing.T, d *Driver, id string, cores int32) *wire.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: id, Host: "h1", Cores: cores}}})
	return conn
}

// heartbeat sends conn's heartbeats every 100ms until the returned
// function is called.
func heartbeat(conn *wire.Conn) (stop func()) {
	quit := make(chan struct{})
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				if conn.Send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{}}}) != nil {
					return
				}
			}
		}
	}()
	return func() { close(quit) }
}

// succeedEvery plays an executor whose every task succeeds at once, until
// its connection ends.
func succeedEvery(conn *wire.Conn) {
	for {
		m, err := conn.Recv()
		if err != nil {
			return
		}
		var sts []*wire.Status
		for _, l := range m.GetLaunchBatch().GetLaunches() {
			sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
		}
		if len(sts) > 0 {
			conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
		}
	}
}

// waitRegistered waits until n executors are registered with d.
func waitRegistered(t *testing.T, d *Driver, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		st, err := d.Status(ctx)
		if err != nil {
			t.Fatalf("waiting for %d executors to register: the loop does not answer: %v", n, err)
		}
		if len(st.Executors) == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func executorSummary(sum core.Summary, id string) core.ExecutorSummary {
	for _, x := range sum.Executors {
		if string(x.ID) == id {
			return x
		}
	}
	return core.ExecutorSummary{}
}

// An executor the core refuses hears why, and then the driver hangs up:
// the refusal goes out before the close.
func TestRefusedExecutorHearsWhyBeforeTheClose(t *testing.T) {
	d, _ := runDriver(t, Config{}, 1)
	dialExecutor(t, d, "e1", 1)
	waitRegistered(t, d, 1)
	again := dialExecutor(t, d, "e1", 1)
	again.SetReadDeadline(time.Now().Add(5 * time.Second))
	m, err := again.Recv()
	if err != nil || !strings.Contains(m.GetRejected().GetReason(), "already registered") {
		t.Fatalf("the second e1 got %v, %v; want Rejected as already registered", m, err)
	}
	if m, err := again.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("after Rejected: %v, %v; want the connection closed", m, err)
	}
}

// Every connection's writer ends with it: here, an executor's that went
// away while the core awaits its exit status, so that no Shutdown is ever
// posted to it.
func TestWritersEndWithTheirConnections(t *testing.T) {
	// Earlier tests' writers end as their connections do.
	waitWriters(t, 0, "earlier tests' writers outlive their connections")
	d, _ := runDriver(t, Config{Core: core.Config{LossReasonWait: time.Hour}}, 1)
	conn := dialExecutor(t, d, "e1", 1)
	waitRegistered(t, d, 1)
	if n := writers(); n != 1 {
		t.Fatalf("%d writers for one executor", n)
	}
	conn.Close()
	waitWriters(t, 0, "the writer outlives its connection")
}

// waitWriters waits up to 5s for n writers to be left, else fails with
// complaint.
func waitWriters(t *testing.T, n int, complaint string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for writers() != n {
		if time.Now().After(deadline) {
			t.Fatal(complaint)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// writers counts the goroutines writing to connections (outbox.write).
func writers() int {
	buf := make([]byte, 1<<20)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*outbox).write(")
}
