package am_test

import (
	"fmt"
	"slices"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
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
	w := journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
	d := amtest.StartSpec(t, `name: j
stages:
  - {name: train, tasks: 2, gang: true, command: [run], maxAttempts: 2}
  - {name: after, tasks: 1, after: [train], command: [run]}
`, amtest.WithConfig(func(c *am.Config) { c.Journal = w }))
	e := d.Register(t, "e1", amtest.Cores(2))
	// journalled says what the journal holds as done at the first turn
	// whose status shows settled: read in the loop, which writes it.
	journalled := func(what string, settled func(succeeded, running int) bool) string {
		t.Helper()
		var done string
		d.Await(t, what, func(turn am.Turn) bool {
			s := turn.Status()
			if !settled(s.Succeeded, s.Running) || len(st.Jobs) != 1 {
				return false
			}
			done = fmt.Sprint(slices.Collect(st.Jobs[0].Done[0].All()))
			return true
		})
		return done
	}
	for run := 0; run < 2; run++ {
		p := e.PickPort(t)
		e.PortPicked(t, p.GetGang(), 29500+int32(run))
		ranks := map[int32]*wire.Launch{}
		for _, l := range e.Launches(t) {
			ranks[l.GetTaskIndex()] = l
		}
		r0, r1 := ranks[0], ranks[1]
		if r0 == nil || r1 == nil {
			t.Fatalf("run %d launched %v; want both ranks", run, ranks)
		}
		if r0.GetAttempt() != int32(run) {
			t.Fatalf("run %d: rank 0's attempt %d, want %d: it runs again with its gang", run, r0.GetAttempt(), run)
		}
		e.Report(t, amtest.Succeeded(r0))
		if got := journalled("rank 0 succeeded", func(_, running int) bool { return running == 1 }); got != "[]" {
			t.Fatalf("run %d: rank 0 done alone, journalled %s", run, got)
		}
		if run == 0 {
			e.Report(t, amtest.Failed(r1, "exit status 1", 1))
			continue
		}
		e.Report(t, amtest.Succeeded(r1))
		if got := journalled("the gang succeeded", func(succeeded, _ int) bool { return succeeded == 2 }); got != "[0 1]" {
			t.Fatalf("the whole gang done, journalled %s", got)
		}
	}
}
