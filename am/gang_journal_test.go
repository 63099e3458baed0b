package am

import (
	"fmt"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// The journal records a gang's tasks as done only once every task of one
// run has succeeded: rank 0 succeeding before rank 1 fails is not
// journalled (the AM's next attempt would restart the gang without it),
// nor when it succeeds again while rank 1 runs; with the whole run, both
// are.
func TestJournalRecordsAGangWhole(t *testing.T) {
	st := journal.NewState("application_1795251528476_0007")
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(nil, st, 0, log) // appended to, never flushed: no store
	d, _ := runSpec(t, Config{Journal: w}, `name: j
stages:
  - {name: train, tasks: 2, gang: true, command: [run], maxAttempts: 2}
  - {name: after, tasks: 1, after: [train], command: [run]}
`)
	msgs := make(chan received, 16)
	for _, id := range []string{"e1", "e2"} {
		go receive(dialExecutor(t, d, id, 1), msgs)
	}
	// journalled says what the journal holds as done, read once the loop
	// has answered a status showing it settled (so not racing it).
	journalled := func(what string, settled func(succeeded, running int) bool) string {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			s := status(t, d)
			if settled(s.Succeeded, s.Running) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: status %+v", what, s)
			}
		}
		if len(st.Jobs) != 1 {
			t.Fatalf("%s: the journal holds %d jobs", what, len(st.Jobs))
		}
		return fmt.Sprint(st.Jobs[0].Done)
	}
	for run := 0; run < 2; run++ {
		ranks := map[int32]received{}
		for len(ranks) < 2 {
			m := next(t, msgs)
			if p := m.GetPickPort(); p != nil {
				m.conn.Send(&wire.Envelope{Message: &wire.Envelope_PortPicked{PortPicked: &wire.PortPicked{Gang: p.GetGang(), Port: 29500 + int32(run)}}})
			}
			for _, l := range m.GetLaunchBatch().GetLaunches() {
				ranks[l.GetTaskIndex()] = received{m.conn, &wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{l}}}}}
			}
		}
		r0, r1 := ranks[0].GetLaunchBatch().GetLaunches()[0], ranks[1].GetLaunchBatch().GetLaunches()[0]
		if r0.GetAttempt() != int32(run) {
			t.Fatalf("run %d: rank 0's attempt %d, want %d: it runs again with its gang", run, r0.GetAttempt(), run)
		}
		report(ranks[0].conn, r0, wire.Status_SUCCEEDED, "")
		if got := journalled("rank 0 succeeded", func(_, running int) bool { return running == 1 }); got != "[]" {
			t.Fatalf("run %d: rank 0 done alone, journalled %s", run, got)
		}
		if run == 0 {
			report(ranks[1].conn, r1, wire.Status_FAILED, "exit status 1")
			continue
		}
		report(ranks[1].conn, r1, wire.Status_SUCCEEDED, "")
		if got := journalled("the gang succeeded", func(succeeded, _ int) bool { return succeeded == 2 }); got != "[{0 0 0} {0 0 1}]" {
			t.Fatalf("the whole gang done, journalled %s", got)
		}
	}
}

// received is a message the driver sent to an executor's conn.
type received struct {
	conn *wire.Conn
	*wire.Envelope
}

// receive forwards what conn receives to out, until it closes.
func receive(conn *wire.Conn, out chan<- received) {
	for {
		m, err := conn.Recv()
		if err != nil {
			return
		}
		out <- received{conn, m}
	}
}

// next is the next message either executor received.
func next(t *testing.T, msgs <-chan received) received {
	t.Helper()
	select {
	case m := <-msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("the driver sent nothing for 10s")
		return received{}
	}
}
