package am_test

import (
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// A journal whose job this attempt cannot resume (its spec unreadable)
// is not half-applied: the attempt starts over, releasing the containers
// YARN kept, asking for all its executors anew, and telling the journal
// the old job is over.
func TestWorkThatCannotBeResumedStartsOver(t *testing.T) {
	f := &amtest.FakeRM{Respond: shutdown}
	st := journal.NewState("application_1795251528476_0003")
	for _, e := range []journal.Entry{{Job: &journal.Job{ID: 0, Spec: []byte("{not a spec"), StageProfiles: []int{0}}},
		{Executor: &journal.Executor{Container: "container_1795251528476_0003_01_000002", Address: "nm1:4000", Node: "nm1:8041", NodeName: "nm1"}}} {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	log, hook := logtest.NewNullLogger()
	kept := &hadoopyarn.ContainerProto{NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("nm1"), Port: proto.Int32(8041)},
		Id: &hadoopyarn.ContainerIdProto{Id: proto.Int64(2), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{AttemptId: proto.Int32(1),
			ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795251528476), Id: proto.Int32(3)}}}}
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(f), amtest.WithLog(log), amtest.WithConfig(func(c *am.Config) {
		c.Journal = journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
		c.Resume = &am.Resumption{State: st, Kept: []*hadoopyarn.ContainerProto{kept}}
	}))
	if err := d.Wait(t).Failure(); err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v, want AM_SHUTDOWN", err)
	}
	reqs := f.Requests()
	if len(reqs) == 0 {
		t.Fatal("no allocate")
	}
	if rel := reqs[0].GetRelease(); len(rel) != 1 || rel[0].GetId() != 2 {
		t.Errorf("the first allocate releases %v; want the kept container 2", rel)
	}
	if ask := reqs[0].GetAsk(); len(ask) != 1 || ask[0].GetNumContainers() != 3 {
		t.Errorf("the first allocate asks %v; want all 3 executors anew", ask)
	}
	// The job run anew took the next id, journalled, then ended with
	// the AM_SHUTDOWN: the journal holds no job, the old one ended too.
	if len(st.Jobs) != 0 || st.NextJob != 2 {
		t.Errorf("the journal holds %d jobs, next job %d; want none, next 2 (the old job 0 over, the new one 1)", len(st.Jobs), st.NextJob)
	}
	said := false
	for _, e := range hook.AllEntries() {
		said = said || strings.Contains(e.Message, "cannot be resumed: it starts over")
	}
	if !said {
		t.Error("the log does not say the work starts over")
	}
}

// A job's done tasks come back from the journal's sets task by task,
// and a set naming a task past its stage's (a journal of another spec)
// is not spelt out: the work starts over.
func TestResumedTasksAreThoseOfTheirStage(t *testing.T) {
	spec, err := jobspec.Parse([]byte("name: j\nstages:\n  - {name: s, tasks: 3, command: \"true\"}\n"), "spec", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := spec.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		done []int
		said string
	}{
		{[]int{0, 2}, "job 0 resumed from the previous attempt: 2 tasks had succeeded"},
		{[]int{0, 3}, "stage 0 has 3 tasks, and task 3 is done"},
	} {
		st := journal.NewState("application_1795251528476_0003")
		entries := []journal.Entry{{Job: &journal.Job{ID: 0, Spec: data, StageProfiles: []int{0}}}}
		for _, i := range tc.done {
			entries = append(entries, journal.TaskDone(0, 0, i))
		}
		for _, e := range entries {
			if err := st.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		log, hook := logtest.NewNullLogger()
		amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(&amtest.FakeRM{Respond: shutdown}), amtest.WithLog(log),
			amtest.WithConfig(func(c *am.Config) {
				c.Journal = journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
				c.Resume = &am.Resumption{State: st}
			})).Wait(t)
		said := false
		for _, e := range hook.AllEntries() {
			msg, _ := e.String()
			said = said || strings.Contains(msg, tc.said)
		}
		if !said {
			t.Errorf("tasks %v done: the log does not say %q", tc.done, tc.said)
		}
	}
}

// A one-job application resumes its job from the journal under whatever
// id it has, and does not submit it again: an attempt that started the
// work over numbered it in its own range, not 0 (the fault simulator
// found it submitted twice).
func TestAResumedJobIsNotSubmittedAgain(t *testing.T) {
	spec, err := jobspec.Parse([]byte("name: j\nstages:\n  - {name: s, tasks: 3, command: \"true\"}\n"), "spec", jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := spec.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	st := journal.NewState("application_1795251528476_0003")
	const id = 1_000_000_000 // attempt 2's first
	for _, e := range []journal.Entry{{Job: &journal.Job{ID: id, FirstStage: id, Spec: data, StageProfiles: []int{0}}}, journal.TaskDone(id, 0, 1)} {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	log, _ := logtest.NewNullLogger()
	amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithYARN(&amtest.FakeRM{Respond: shutdown}), amtest.WithLog(log),
		amtest.WithConfig(func(c *am.Config) {
			c.Core.AMAttempt = 3
			c.Journal = journal.NewWriter(journal.WriterConfig{Log: log}, st) // appended to, never flushed: no store
			c.Resume = &am.Resumption{State: st}
		})).Wait(t)
	if st.NextJob != id+1 {
		t.Errorf("the journal's next job is %d; want %d: the resumed job alone, none submitted", st.NextJob, id+1)
	}
}
