package am

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// answer answers a batch's launches as a fake executor would: "sleep"
// runs until killed, anything else succeeds at once.
func answer(conn *wire.Conn, b *wire.LaunchBatch) {
	var sts []*wire.Status
	for _, l := range b.GetLaunches() {
		if l.GetArgv()[0] != "sleep" {
			sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
		}
	}
	if len(sts) > 0 {
		conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
	}
}

// A session tells the executor that ran a job's tasks that it ended, so
// that it removes ended jobs' task files; its launches carry the job's
// id and the stage's place in the job, which name the files. An executor
// the session stops as a job ends (here, all of them: the session is
// stopped while a job runs) is not told: it is going, with its files.
func TestSessionTellsExecutorsWhichJobsEnded(t *testing.T) {
	clientSecret := []byte("abcdefabcdefabcdefabcdefabcdefab")
	var logged syncBuffer
	log := logrus.New()
	log.SetOutput(&logged)
	d, err := New(Config{Core: core.Config{AppID: "s", Session: true, Profiles: []scheduler.Profile{{Cores: 1}}},
		Executors: listen(t, testSecret), Clients: listen(t, clientSecret), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		d.Run(ctx, nil, nil)
	}()
	exec, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Close()
	exec.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e1", Host: "h1", Cores: 1}}})

	request := func(m *wire.Envelope) {
		t.Helper()
		client, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), clientSecret)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		client.Send(m)
		if r, err := client.Recv(); err != nil || r.GetRejected() != nil {
			t.Fatalf("request %v: %v, %v", m, r, err)
		}
	}
	for _, spec := range []string{
		"name: one\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n",
		"name: two\nstages:\n  - {name: a, tasks: 1, command: [\"true\"]}\n  - {name: b, tasks: 1, after: [a], command: [\"true\"]}\n",
		"name: long\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n",
	} {
		request(&wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "t.yaml", DefaultPool: "default"}}})
	}
	type named struct{ job, stage int64 }
	var launched []named
	var ended []int64
	stopped := false
	for {
		m, err := exec.Recv()
		if err != nil {
			break // the session ended
		}
		if b := m.GetLaunchBatch(); b != nil {
			for _, l := range b.GetLaunches() {
				launched = append(launched, named{l.GetJobId(), int64(l.GetStageIndex())})
			}
			answer(exec, b)
		}
		if k := m.GetKill(); k != nil {
			exec.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: []*wire.Status{
				{StageId: k.GetStageId(), TaskIndex: k.GetTaskIndex(), Attempt: k.GetAttempt(), State: wire.Status_KILLED}}}}})
		}
		ended = append(ended, m.GetJobsEnded().GetJobIds()...)
		if len(ended) == 2 && len(launched) == 4 && !stopped {
			stopped = true
			// Its answer is no business of this test's: the session
			// ending is.
			go func() {
				client, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), clientSecret)
				if err != nil {
					t.Error(err)
					return
				}
				defer client.Close()
				client.Send(&wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: "test"}}})
				client.Recv()
			}()
		}
	}
	<-ran
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

// syncBuffer is a log's output that goroutines may write while a test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
