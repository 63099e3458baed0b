package am

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// succeed answers every launch of a batch SUCCEEDED.
func succeed(conn *wire.Conn, b *wire.LaunchBatch) {
	var sts []*wire.Status
	for _, l := range b.GetLaunches() {
		sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
}

// A session tells its executors each job that ended, so that they
// remove ended jobs' task files; its launches carry the job's id and the
// stage's place in the job, which name the files.
func TestSessionTellsExecutorsWhichJobsEnded(t *testing.T) {
	clientSecret := []byte("abcdefabcdefabcdefabcdefabcdefab")
	d, err := New(Config{Core: core.Config{AppID: "s", Session: true, Profiles: []scheduler.Profile{{Cores: 1}}},
		Executors: listen(t, testSecret), Clients: listen(t, clientSecret)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go d.Run(ctx, nil, nil)
	exec, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Close()
	exec.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e1", Host: "h1", Cores: 1}}})

	for _, spec := range []string{
		"name: one\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n",
		"name: two\nstages:\n  - {name: a, tasks: 1, command: [\"true\"]}\n  - {name: b, tasks: 1, after: [a], command: [\"true\"]}\n",
	} {
		client, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), clientSecret)
		if err != nil {
			t.Fatal(err)
		}
		client.Send(&wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "t.yaml", DefaultPool: "default"}}})
		if m, err := client.Recv(); err != nil || m.GetJobAccepted() == nil {
			t.Fatalf("submit: %v, %v", m, err)
		}
		client.Close()
	}
	type named struct{ job, stage int64 }
	var launched []named
	var ended []int64
	for len(ended) < 2 {
		m, err := exec.Recv()
		if err != nil {
			t.Fatalf("executor: %v (launched %v, told ended %v)", err, launched, ended)
		}
		if b := m.GetLaunchBatch(); b != nil {
			for _, l := range b.GetLaunches() {
				launched = append(launched, named{l.GetJobId(), int64(l.GetStageIndex())})
			}
			succeed(exec, b)
		}
		ended = append(ended, m.GetJobsEnded().GetJobIds()...)
	}
	if !slices.Equal(ended, []int64{0, 1}) {
		t.Errorf("told jobs %v ended, want [0 1]", ended)
	}
	if !slices.Equal(launched, []named{{0, 0}, {1, 0}, {1, 1}}) {
		t.Errorf("launches named (job, stage) %v, want [{0 0} {1 0} {1 1}]", launched)
	}
}

// A one-job application tells its executors nothing of the kind: its
// files are what its user reads at the end.
func TestOneJobApplicationKeepsItsTaskFiles(t *testing.T) {
	d, done := runDriver(t, Config{}, 1)
	conn := fakeExecutor(t, d, "e1")
	defer conn.Close()
	// fakeExecutor returns once the job's one task, stage 0's task 0,
	// attempt 0, was launched.
	conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: []*wire.Status{{StageId: 0, State: wire.Status_SUCCEEDED}}}}})
	var got []string
	for {
		m, err := conn.Recv()
		if err != nil {
			break
		}
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
	if sum := <-done; !sum.Succeeded {
		t.Errorf("the job did not succeed: %+v", sum)
	}
}
