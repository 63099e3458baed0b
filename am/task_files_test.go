package am_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
)

// A session tells the executor that ran a job's tasks that it ended, so
// that it removes ended jobs' task files; its launches carry the job's
// id and the stage's place in the job, which name the files. An executor
// the session stops as a job ends (here, all of them: the session is
// stopped while a job runs) is not told: it is going, with its files.
func TestSessionTellsExecutorsWhichJobsEnded(t *testing.T) {
	var logged amtest.Buffer
	log := logrus.New()
	log.SetOutput(&logged)
	d := amtest.StartSession(t, amtest.WithLog(log), amtest.WithCore(func(c *core.Config) { c.AppID = "s" }))
	e := d.Register(t, "e1")
	c := d.Client()
	for _, spec := range []string{
		"name: one\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n",
		"name: two\nstages:\n  - {name: a, tasks: 1, command: [\"true\"]}\n  - {name: b, tasks: 1, after: [a], command: [\"true\"]}\n",
		"name: long\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n",
	} {
		c.Submit(t, spec)
	}
	type named struct{ job, stage int64 }
	var launched []named
	var ended []int64
	stopping := false
	for {
		m, err := e.Receive(t)
		if err != nil {
			break // the session ended
		}
		for _, l := range m.GetLaunchBatch().GetLaunches() {
			launched = append(launched, named{l.GetJobId(), int64(l.GetStageIndex())})
		}
		e.Answer(m)
		ended = append(ended, m.GetJobsEnded().GetJobIds()...)
		if len(ended) == 2 && len(launched) == 4 && !stopping {
			stopping = true
			// Its answer is no business of this test's: the session
			// ending is.
			go c.Request(amtest.StopSession("test"))
		}
	}
	d.Wait(t)
	if !slices.Equal(ended, []int64{0, 1}) {
		t.Errorf("told jobs %v ended, want [0 1] (not 2, ended as the session stopped)", ended)
	}
	if !slices.Equal(launched, []named{{0, 0}, {1, 0}, {2, 0}, {1, 1}}) && !slices.Equal(launched, []named{{0, 0}, {1, 0}, {1, 1}, {2, 0}}) {
		t.Errorf("launches named (job, stage) %v, want {0 0} {1 0} {1 1} and {2 0}", launched)
	}
	if strings.Contains(logged.String(), "telling which jobs ended") {
		t.Errorf("the driver tried to tell a stopped executor:\n%s", logged.String())
	}
}

// A one-job application tells its executors nothing of the kind: its
// files are what its user reads at the end.
func TestOneJobApplicationKeepsItsTaskFiles(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	e := d.Register(t, "e1")
	e.Report(t, amtest.Succeeded(e.Launches(t)[0]))
	msgs, _ := e.Ended(t)
	var got []string
	for _, m := range msgs {
		if m.GetJobsEnded() != nil {
			got = append(got, "JobsEnded")
		}
		if m.GetShutdown() != nil {
			got = append(got, "Shutdown")
		}
	}
	if !slices.Equal(got, []string{"Shutdown"}) {
		t.Errorf("the executor was sent %v, want [Shutdown] alone", got)
	}
	if sum := d.Wait(t).Summary; !sum.Succeeded {
		t.Errorf("the job did not succeed: %+v", sum)
	}
}
