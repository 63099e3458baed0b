package am_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
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
	log, cut := cutOffLog()
	d := amtest.Start(t, amtest.Tasks(t, 9, argv...), amtest.WithLog(log),
		amtest.WithCore(func(c *core.Config) { c.HeartbeatTimeout = stalledHeartbeat }))

	start := time.Now()
	// Nobody reads the stalled executor's messages. Registered from 8
	// cores before the other, it gets eight tasks: the batch the driver
	// cannot finish writing.
	stalled := d.Register(t, "stalled", amtest.Cores(8))
	d.AwaitStatus(t, "the stalled executor registered", func(st core.Status) bool { return len(st.Executors) == 1 })
	healthy := d.Register(t, "healthy")
	healthy.BeatEvery(100 * time.Millisecond)
	healthy.Serve()

	sum := d.Wait(t).Summary
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

	// The driver hung up on it, mid-batch: once its write outlasted the
	// heartbeat timeout, not when the peer read again.
	select {
	case x := <-cut:
		if x != "stalled" {
			t.Fatalf("executor %s cut off; want the stalled one", x)
		}
	case <-time.After(amtest.Patience):
		t.Fatal("the stalled executor was not cut off")
	}
	stalled.Registered(t)
	if m, err := stalled.Receive(t); err == nil {
		t.Fatalf("the stalled executor reads %v; want the batch cut short", m)
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
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	d.Register(t, "e1").Registered(t)
	again := d.Register(t, "e1")
	if why := again.Rejected(t); !strings.Contains(why, "already registered") {
		t.Fatalf("the second e1 was refused with %q; want it refused as already registered", why)
	}
	if m, err := again.Ended(t); !errors.Is(err, io.EOF) || len(m) > 0 {
		t.Fatalf("after Rejected: %v, %v; want the connection closed", m, err)
	}
}

// Every connection's writer ends with it: an executor's that went away
// while the core awaits its exit status, so that no Shutdown is ever
// posted to it, and one the driver shut down as the job ended.
func TestWritersEndWithTheirConnections(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithCore(func(c *core.Config) { c.LossReasonWait = time.Hour }))
	stays := d.Register(t, "stays")
	task := stays.Launches(t)[0]
	gone := d.Register(t, "gone")
	gone.Registered(t)
	writers := []<-chan struct{}{am.WriterDone(d.Driver, "stays"), am.WriterDone(d.Driver, "gone")}
	if writers[0] == nil || writers[1] == nil {
		t.Fatalf("writers %v; want one for each registered executor", writers)
	}
	gone.Vanish()
	awaitClosed(t, writers[1], "the writer outlives its connection")
	stays.Report(t, amtest.Succeeded(task))
	stays.Shutdown(t)
	awaitClosed(t, writers[0], "the writer outlives the connection the driver shut down")
}

// awaitClosed waits for ch to be closed, or fails with complaint.
func awaitClosed(t *testing.T, ch <-chan struct{}, complaint string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(amtest.Patience):
		t.Fatal(complaint)
	}
}
