package am_test

import (
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
)

// flakySpec is a job of one task that may fail once: its second counted
// failure fails the job.
const flakySpec = "name: j\nstages:\n  - {name: s, tasks: 1, command: [run], maxAttempts: 2}\n"

// Each failure counted against a task is journalled, for the AM's next
// attempt to count again.
func TestTaskFailuresAreJournalled(t *testing.T) {
	st := journal.NewState("application_1795251528476_0007")
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
	d := amtest.StartSpec(t, flakySpec, amtest.WithConfig(func(c *am.Config) { c.Journal = w }))
	e := d.Register(t, "e1")
	e.Report(t, amtest.Failed(e.Launches(t)[0], "exit status 1", 1))
	d.Await(t, "the failure journalled", func(am.Turn) bool {
		return len(st.Jobs) == 1 && st.Jobs[0].Failed[journal.TaskRef{Job: 0, Stage: 0, Index: 0}] == 1
	})
	e.Report(t, amtest.Succeeded(e.Launches(t)[0]))
	if sum := d.Wait(t).Summary; !sum.Succeeded || sum.Failures != 1 {
		t.Fatalf("summary %+v; want the job succeeded after 1 failure", sum)
	}
}

// The failures a task had in earlier AM attempts count against it: a
// task of maxAttempts 2 that failed once before fails its job at its
// next failure, in this attempt's first (numbered in AM attempt 2's
// range, from 1000).
func TestFailuresOfEarlierAMAttemptsCount(t *testing.T) {
	spec, err := jobspec.Parse([]byte(flakySpec), "job.yaml", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := spec.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	st := journal.NewState("application_1795251528476_0007")
	for _, e := range []journal.Entry{{Job: &journal.Job{ID: 0, Spec: data, StageProfiles: []int{0}}}, {TaskFailed: &journal.TaskRef{}}} {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	d := amtest.Start(t, spec, amtest.WithCore(func(c *core.Config) { c.AMAttempt = 2 }), amtest.WithConfig(func(c *am.Config) {
		c.Resume = &am.Resumption{State: st}
	}))
	e := d.Register(t, "e1")
	l := e.Launches(t)[0]
	if l.GetJobId() != 0 || l.GetAttempt() != core.AttemptsPerAMAttempt {
		t.Fatalf("launched job %d attempt %d; want the resumed job 0, attempt %d", l.GetJobId(), l.GetAttempt(), core.AttemptsPerAMAttempt)
	}
	e.Report(t, amtest.Failed(l, "exit status 1", 1))
	if err := d.Wait(t).Failure(); err == nil || !strings.Contains(err.Error(), "failed 2 times") {
		t.Fatalf("Run ended with %v; want the job failed by its second failure", err)
	}
}
