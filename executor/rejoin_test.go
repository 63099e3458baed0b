package executor

import (
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// An executor whose driver dies keeps its task running; the next
// attempt dials its rejoin address, learns of the task from its Register
// and, once it accepts, gets the task's status when it ends. Losing that
// driver too is survived the same way.
func TestExecutorRejoinsTheNextAttemptWithItsTasks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	if a := d.first.GetRejoinAddress(); !strings.HasPrefix(a, "127.0.0.1:") || a == "127.0.0.1:0" || d.first.GetRejoining() || len(d.first.GetRunning()) > 0 {
		t.Fatalf("first registration: rejoin address %q, rejoining %v, running %v; want 127.0.0.1:PORT, false, none",
			a, d.first.GetRejoining(), d.first.GetRunning())
	}
	d.log.waitFor(t, "registered with the driver", 1)
	if logged := d.log.field("registered with the driver", "rejoin"); logged != d.first.GetRejoinAddress() {
		t.Errorf("the registration's log line says rejoin=%v", logged)
	}
	launched := time.Now()
	// Two more, of another stage and index, that it reports in order.
	d.launch(d.waitingTask("long", 7, 5), d.waitingTask("other", 7, 1), d.waitingTask("third", 6, 9))
	pid := d.pid("long")
	d.pid("other")
	d.pid("third")
	d.drop()

	for attempt := 2; attempt <= 3; attempt++ {
		reg := d.rejoin()
		want := proto.Clone(d.first).(*wire.Register)
		want.Rejoining = true
		for _, at := range [][2]int{{6, 9}, {7, 1}, {7, 5}} {
			want.Running = append(want.Running, &wire.RunningAttempt{JobId: 3, StageId: int64(at[0]), StageIndex: 1, TaskIndex: int32(at[1]), Attempt: 2,
				GpuAddresses: []string{"1"}, Cpus: 2})
		}
		for i, r := range reg.GetRunning() {
			if start := time.Unix(0, r.GetStartUnixNanos()); start.Before(launched) || start.After(time.Now()) {
				t.Errorf("attempt %d: task %d/%d's start %v; it was launched at %v", attempt, r.GetStageId(), r.GetTaskIndex(), start, launched)
			}
			if i < len(want.Running) {
				want.Running[i].StartUnixNanos = r.GetStartUnixNanos()
			}
		}
		if !proto.Equal(reg, want) {
			t.Fatalf("attempt %d: Register\n%v\nwant\n%v", attempt, reg, want)
		}
		d.accept()
		if !alive(pid) {
			t.Fatalf("attempt %d: the task did not outlive the driver", attempt)
		}
		if attempt == 2 {
			d.drop()
		}
	}
	d.release("long")
	st := d.statuses(1)
	if len(st) != 1 || st[0].GetState() != wire.Status_SUCCEEDED || st[0].GetStageId() != 7 || st[0].GetTaskIndex() != 5 || st[0].GetAttempt() != 2 {
		t.Fatalf("statuses %v; want task 7/5/2 SUCCEEDED", st)
	}
	d.release("other")
	d.release("third")
	d.statuses(2)
	// The rejoined driver is served as the first: launches, kills.
	d.launch(d.waitingTask("later", 8, 0))
	d.pid("later")
	d.send(&wire.Envelope{Message: &wire.Envelope_Kill{Kill: &wire.Kill{StageId: 8, TaskIndex: 0, Attempt: 2, Reason: "test"}}})
	if st := d.statuses(1); st[0].GetState() != wire.Status_KILLED {
		t.Fatalf("after a Kill from the rejoined driver: %v", st)
	}
	d.shutdown()
	d.log.waitFor(t, "rejoined a new ApplicationMaster", 2)
}

// A task that ends while the executor has no driver is reported to the
// next: not among the running attempts of its Register, but by its status
// once the driver accepts, and before anything else.
func TestStatusOfATaskEndedWithoutADriverReachesTheNext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	d.launch(d.waitingTask("short", 7, 0), d.waitingTask("long", 7, 1))
	d.pid("short")
	d.pid("long")
	d.drop()
	d.log.waitFor(t, "keeping the tasks running for a new ApplicationMaster", 1)
	d.release("short")
	d.log.waitFor(t, "task ended", 1)
	reg := d.rejoin()
	if got := reg.GetRunning(); len(got) != 1 || got[0].GetTaskIndex() != 1 {
		t.Fatalf("running %v; want task 1 alone", got)
	}
	d.accept()
	if st := d.recv().GetStatusBatch().GetStatuses(); len(st) != 1 || st[0].GetTaskIndex() != 0 || st[0].GetState() != wire.Status_SUCCEEDED {
		t.Fatalf("first message after the rejoin: statuses %v; want task 0 SUCCEEDED", st)
	}
	d.shutdown()
}

// A new driver that refuses the rejoining executor ends it: its tasks are
// stopped and Serve says why.
func TestRefusedRejoinStopsEveryTask(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	d.launch(d.waitingTask("long", 7, 0))
	pid := d.pid("long")
	d.drop()
	d.rejoin()
	d.send(&wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: "not in the journal"}}})
	wantErr(t, d.result(), "the new ApplicationMaster refused it: not in the journal")
	waitGone(t, []int{pid})
}

// With no new driver within the rejoin timeout the executor stops its
// tasks and exits: not before the timeout, and nothing reaches it after.
func TestNoDriverWithinTheRejoinTimeoutStopsEveryTask(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	baseline := runtime.NumGoroutine()
	const timeout = 500 * time.Millisecond
	d := startExecutor(t, ctx, timeout)
	d.launch(d.waitingTask("long", 7, 0))
	pid := d.pid("long")
	dropped := time.Now()
	d.drop()
	err := d.result()
	if waited := time.Since(dropped); waited < timeout {
		t.Errorf("Serve returned %v after the driver went; the timeout is %v", waited, timeout)
	}
	wantErr(t, err, "driver connection ended", "no new ApplicationMaster came within 500ms")
	if !errors.Is(err, ErrDriverGone) {
		t.Errorf("Serve: %v; want ErrDriverGone, for the process to exit saying so", err)
	}
	if d.log.count("no new ApplicationMaster came within the rejoin timeout: stopping every task") != 1 {
		t.Error("the executor did not log why it stopped")
	}
	waitGone(t, []int{pid})
	// One past the limit: nobody listens any more.
	if c, err := d.dial(d.secret); !errors.Is(err, syscall.ECONNREFUSED) {
		if c != nil {
			c.Close()
		}
		t.Fatalf("dialing after the timeout: %v; want the connection refused", err)
	}
	// Nothing of Serve's is left running.
	d.conn.Close()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > baseline; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before Serve:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
	}
}

// A connection to the rejoin address without the secret is closed and
// the executor waits on; so does one whose driver hangs up, says nothing
// for the reply wait, or answers with something other than Registered or
// Rejected. The driver it rejoins may then be as quiet as it likes.
func TestRejoinIgnoresWhoeverIsNotTheNextDriver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const replyWait = 300 * time.Millisecond
	d := startExecutor(t, ctx, 30*time.Second, func(c *Config) { c.replyWait = replyWait })
	d.launch(d.waitingTask("long", 7, 0))
	pid := d.pid("long")
	d.drop()
	if c, err := d.dial(wire.NewSecret()); !errors.Is(err, wire.ErrHandshake) {
		if c != nil {
			c.Close()
		}
		t.Fatalf("dialing with another secret: %v; want a failed handshake", err)
	}
	d.log.waitFor(t, "a connection to the rejoin listener failed: ignored", 1)
	const unanswered = "a new ApplicationMaster dialed in but did not answer the registration: waiting on"
	d.rejoin()
	d.drop() // hangs up before answering
	d.log.waitFor(t, unanswered, 1)
	d.rejoin()
	dialed := time.Now()
	d.log.waitFor(t, unanswered, 2) // says nothing
	if waited := time.Since(dialed); waited < replyWait {
		t.Errorf("a silent driver was hung up on after %v; the reply wait is %v", waited, replyWait)
	}
	d.rejoin()
	d.send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{}}})
	d.log.waitFor(t, "a new ApplicationMaster answered the registration with something else: hung up on, waiting on", 1)
	if reg := d.rejoin(); len(reg.GetRunning()) != 1 || !alive(pid) {
		t.Fatalf("after four who were not the next driver: running %v, task alive %v", reg.GetRunning(), alive(pid))
	}
	d.accept()
	// Those were all within the one wait the driver's loss began.
	if n := d.log.count("keeping the tasks running for a new ApplicationMaster"); n != 1 {
		t.Errorf("the executor began waiting for a new driver %d times; once, when the driver went", n)
	}
	time.Sleep(2 * replyWait) // no longer bound to answer in time
	d.release("long")
	if st := d.statuses(1); st[0].GetState() != wire.Status_SUCCEEDED {
		t.Fatalf("statuses %v", st)
	}
	d.shutdown()
}

// A new driver that dials in while the executor still serves the old one
// takes its place: the old connection may not have said it ended (a host
// that vanished sends nothing), but only the next attempt dials.
func TestANewDriverDialingInTakesTheOldOnesPlace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	d.launch(d.waitingTask("long", 7, 0))
	d.pid("long")
	old := d.conn
	d.rejoin()
	d.drop() // one that hangs up leaves the executor waiting for another
	d.log.waitFor(t, "a new ApplicationMaster dialed in but did not answer the registration: waiting on", 1)
	if reg := d.rejoin(); !reg.GetRejoining() || len(reg.GetRunning()) != 1 {
		t.Fatalf("Register to the new driver: %v", reg)
	}
	d.accept()
	old.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, err := old.Recv(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the executor still holds the old driver's connection")
			}
			break // the executor hung up on the old driver
		}
	}
	d.release("long")
	if st := d.statuses(1); st[0].GetState() != wire.Status_SUCCEEDED {
		t.Fatalf("statuses %v", st)
	}
	d.shutdown()
}

// Without a rejoin timeout nothing changes: no rejoin address, and a
// driver that goes away takes the tasks with it at once.
func TestWithoutRejoinTimeoutTheTasksStopWithTheDriver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 0)
	d.log.waitFor(t, "registered with the driver", 1)
	if a := d.first.GetRejoinAddress(); a != "" || d.log.field("registered with the driver", "rejoin") != nil {
		t.Fatalf("rejoin address %q without a rejoin timeout", a)
	}
	d.launch(d.waitingTask("long", 7, 0))
	pid := d.pid("long")
	d.drop()
	err := d.result()
	wantErr(t, err, "driver connection ended")
	if !errors.Is(err, ErrDriverGone) {
		t.Errorf("Serve: %v; want ErrDriverGone, for the process to exit saying so", err)
	}
	waitGone(t, []int{pid})
	if d.log.count("the driver connection ended: stopping every task") != 1 {
		t.Error("the executor did not log why it stopped")
	}
}

// A Shutdown followed at once by the end of the connection is a shutdown,
// never a lost driver to wait for: the end is taken after every message
// before it, even with a backlog of them (heartbeats, here).
func TestShutdownThenHangUpIsNoLoss(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for range 20 {
		d := startExecutor(t, ctx, 30*time.Second)
		for range 50 {
			d.send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{}}})
		}
		d.send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
		d.drop()
		select {
		case err := <-d.served:
			if err != nil {
				t.Fatalf("Serve: %v; want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the executor waits for a new driver after a Shutdown")
		}
	}
}

// Cancelled while it waits for a driver, even one that dialed in and has
// yet to answer, the executor stops its tasks at once.
func TestCancelWhileWaitingForADriverStopsEveryTask(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sctx, stop := context.WithCancel(ctx)
	d := startExecutor(t, sctx, 30*time.Second, func(c *Config) { c.replyWait = 30 * time.Second })
	d.ctx = ctx
	d.launch(d.waitingTask("long", 7, 0))
	pid := d.pid("long")
	d.drop()
	d.rejoin()
	stopped := time.Now()
	stop()
	if err := d.result(); !errors.Is(err, context.Canceled) || errors.Is(err, ErrDriverGone) {
		t.Fatalf("Serve: %v; want context.Canceled, not ErrDriverGone", err)
	}
	if took := time.Since(stopped); took > 5*time.Second {
		t.Errorf("Serve returned %v after the cancel", took)
	}
	waitGone(t, []int{pid})
}

// Launch.Config hands the launch's rejoin timeout to the executor.
func TestLaunchConfigCarriesTheRejoinTimeout(t *testing.T) {
	cfg := Launch{ExecutorID: "e", RejoinTimeout: 90 * time.Second}.Config(nil, nil)
	if cfg.RejoinTimeout != 90*time.Second || cfg.RejoinHost != "" {
		t.Fatalf("RejoinTimeout %v, RejoinHost %q", cfg.RejoinTimeout, cfg.RejoinHost)
	}
	// In a YARN container the rejoin address is the NodeManager's host,
	// by which the cluster reaches the node.
	if cfg := (Launch{ExecutorID: "e"}).Config([]string{"NM_HOST=node7.example.com"}, nil); cfg.RejoinHost != "node7.example.com" {
		t.Fatalf("RejoinHost %q; want NM_HOST's", cfg.RejoinHost)
	}
}

// The rejoin listener binds and advertises RejoinHost when it is set.
func TestRejoinAddressIsOnTheRejoinHost(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, time.Second, func(c *Config) { c.Host, c.RejoinHost = "localhost", "127.0.0.1" })
	if host, _, _ := net.SplitHostPort(d.first.GetRejoinAddress()); host != "127.0.0.1" {
		t.Fatalf("rejoin address %q; want it on 127.0.0.1", d.first.GetRejoinAddress())
	}
	d.shutdown()
}

// A success the lost driver was sent may never have reached its journal:
// the next driver is sent it again, before anything newer.
func TestRecentSuccessesAreSentToTheNextDriverAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	d.launch(d.waitingTask("done", 7, 0), d.waitingTask("failing", 7, 1), d.waitingTask("long", 7, 2))
	d.pid("done")
	d.pid("long")
	d.release("done")
	if st := d.statuses(1); st[0].GetTaskIndex() != 0 || st[0].GetState() != wire.Status_SUCCEEDED {
		t.Fatalf("statuses %v; want task 0 SUCCEEDED", st)
	}
	syscall.Kill(d.pid("failing"), syscall.SIGKILL)
	if st := d.statuses(1); st[0].GetTaskIndex() != 1 || st[0].GetState() != wire.Status_FAILED {
		t.Fatalf("statuses %v; want task 1 FAILED", st)
	}
	d.drop()
	d.log.waitFor(t, "keeping the tasks running for a new ApplicationMaster", 1)
	d.rejoin()
	d.accept()
	st := d.recv().GetStatusBatch().GetStatuses()
	if len(st) != 1 || st[0].GetTaskIndex() != 0 || st[0].GetState() != wire.Status_SUCCEEDED {
		t.Fatalf("first message after the rejoin: statuses %v; want task 0's success again, alone (not the failure)", st)
	}
	d.release("long")
	if st := d.statuses(1); st[0].GetTaskIndex() != 2 {
		t.Fatalf("statuses %v; want task 2's", st)
	}
	d.shutdown()
}

// Successes are sent again only so recently and so many.
func TestRecentSuccessesAreBounded(t *testing.T) {
	var r recentSuccesses
	t0 := time.Now()
	ok := func(i int32) *wire.Status { return &wire.Status{TaskIndex: i, State: wire.Status_SUCCEEDED} }
	r.add(t0, []*wire.Status{ok(0), {TaskIndex: 1, State: wire.Status_FAILED}})
	r.add(t0.Add(resendWithin), []*wire.Status{ok(2)})
	if got := r.take(); len(got) != 2 || got[0].GetTaskIndex() != 0 || got[1].GetTaskIndex() != 2 {
		t.Fatalf("at exactly resendWithin: %v; want tasks 0 and 2", got)
	}
	r.add(t0, []*wire.Status{ok(0)})
	r.add(t0.Add(resendWithin+time.Nanosecond), []*wire.Status{ok(2)})
	if got := r.take(); len(got) != 1 || got[0].GetTaskIndex() != 2 {
		t.Fatalf("past resendWithin: %v; want task 2 alone", got)
	}
	many := make([]*wire.Status, resendAtMost+1)
	for i := range many {
		many[i] = ok(int32(i))
	}
	r.add(t0, many)
	if got := r.take(); len(got) != resendAtMost || got[0].GetTaskIndex() != 1 {
		t.Fatalf("%d successes: kept %d from task %d; want the last %d", len(many), len(got), got[0].GetTaskIndex(), resendAtMost)
	}
	if r.any() {
		t.Error("take left some behind")
	}
}

// A rejoining executor with nothing to report still sends a batch at
// once: the new AM places no task until it has heard what ended while
// the executor had no driver, nothing included.
func TestARejoinWithNothingToReportStillSendsABatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 30*time.Second)
	d.launch(d.waitingTask("long", 7, 0))
	d.pid("long")
	d.drop()
	d.log.waitFor(t, "keeping the tasks running for a new ApplicationMaster", 1)
	d.rejoin()
	d.accept()
	m := d.recv()
	if m.GetStatusBatch() == nil || len(m.GetStatusBatch().GetStatuses()) != 0 {
		t.Fatalf("first message after the rejoin: %v; want an empty StatusBatch", m)
	}
	d.release("long")
	if st := d.statuses(1); st[0].GetTaskIndex() != 0 {
		t.Fatalf("statuses %v; want task 0's", st)
	}
	d.shutdown()
}

// An executor in a YARN container names its NodeManager's page of the
// container's logs, where the UI links its tasks' files; elsewhere none.
func TestAContainersExecutorNamesItsLogsPage(t *testing.T) {
	env := []string{"NM_HOST=node7.example.com", "NM_HTTP_PORT=8042", "CONTAINER_ID=container_1_0001_01_000002", "USER=alice"}
	if got, want := (Launch{ExecutorID: "e"}).Config(env, nil).LogURL, "http://node7.example.com:8042/node/containerlogs/container_1_0001_01_000002/alice"; got != want {
		t.Errorf("LogURL %q, want %q", got, want)
	}
	for i := range env {
		partial := append(append([]string(nil), env[:i]...), env[i+1:]...)
		if got := (Launch{ExecutorID: "e"}).Config(partial, nil).LogURL; got != "" {
			t.Errorf("LogURL %q without %s, want none", got, env[i])
		}
	}
}
