package appmaster

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// testSecret is the executors' application secret in these tests.
var testSecret = []byte("0123456789abcdef0123456789abcdef")

// quiet is a logger that writes nothing.
func quiet() logrus.FieldLogger {
	log := logrus.New()
	log.SetOutput(io.Discard)
	return log
}

// unregistersRM is amtest's RM, allocating nothing, that records the
// AM's unregistrations too; allocating closes at the first allocate: the
// AM has registered and runs its loop.
type unregistersRM struct {
	amtest.FakeRM
	allocating chan struct{}
	mu         sync.Mutex
	finished   []*hadoopyarn.FinishApplicationMasterRequestProto
}

func newUnregistersRM() *unregistersRM {
	f := &unregistersRM{allocating: make(chan struct{})}
	f.Respond = func(n int, _ *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n == 0 {
			close(f.allocating)
		}
		return &hadoopyarn.AllocateResponseProto{}
	}
	return f
}

// handle records an unregistration and hands every other call on to
// the FakeRM.
func (f *unregistersRM) handle(method string, body []byte) (proto.Message, error) {
	if method != "finishApplicationMaster" {
		return f.Handle(method, body)
	}
	req := &hadoopyarn.FinishApplicationMasterRequestProto{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finished = append(f.finished, req)
	return &hadoopyarn.FinishApplicationMasterResponseProto{IsUnregistered: proto.Bool(true)}, nil
}

func (f *unregistersRM) unregistrations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.finished)
}

// runTerminableAM runs an AM whose job waits for executors that never
// come, with terminated as its Terminated, until it has registered and
// runs its loop; it returns what runAppMaster returns.
func runTerminableAM(t *testing.T, ctx context.Context, f *unregistersRM, terminated <-chan struct{}) <-chan error {
	t.Helper()
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	a := appMaster{Job: job, Secret: testSecret, Bind: "127.0.0.1", Host: "127.0.0.1", RM: f.Client(t, f.handle), Log: quiet(),
		Executors: &hadoopyarn.ContainerLaunchContextProto{}, Terminated: terminated,
		Core: core.Config{AppID: "application_1_0001", Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 512}},
			Containers: &core.ContainerConfig{Heartbeat: 20 * time.Millisecond, InitialAllocation: 10 * time.Millisecond}}}
	done := make(chan error, 1)
	go func() {
		_, err := runAppMaster(ctx, a)
		done <- err
	}()
	select {
	case <-f.allocating:
	case err := <-done:
		t.Fatalf("the AM returned before it ran its loop: %v", err)
	case <-time.After(amtest.Patience):
		t.Fatal("the AM did not register and allocate")
	}
	return done
}

// Terminated before the last attempt (the NodeManager's SIGTERM), the AM
// returns at once and does not unregister: YARN starts the next attempt.
func TestTerminatedLeavesTheApplicationToTheNextAttempt(t *testing.T) {
	f := newUnregistersRM()
	terminated := make(chan struct{})
	done := runTerminableAM(t, context.Background(), f, terminated)
	close(terminated)
	select {
	case err := <-done:
		if !errors.Is(err, errLeftToNextAttempt) {
			t.Fatalf("runAppMaster: %v; want errLeftToNextAttempt", err)
		}
	case <-time.After(amtest.Patience):
		t.Fatal("a terminated AM did not return")
	}
	if n := f.unregistrations(); n != 0 {
		t.Errorf("the AM unregistered %d times; want none, so that the application goes on", n)
	}
}

// In the last attempt (no Terminated) an AM whose context is cancelled
// cancels the job and unregisters it as failed, saying why.
func TestCancelledInTheLastAttemptUnregisters(t *testing.T) {
	f := newUnregistersRM()
	ctx, cancel := context.WithCancelCause(context.Background())
	done := runTerminableAM(t, ctx, f, nil)
	cancel(errors.New("interrupted by terminated"))
	select {
	case err := <-done:
		if err == nil || errors.Is(err, errLeftToNextAttempt) {
			t.Fatalf("runAppMaster: %v; want the job's failure", err)
		}
	case <-time.After(amtest.Patience):
		t.Fatal("a cancelled AM did not return")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.finished) != 1 || f.finished[0].GetFinalApplicationStatus() != hadoopyarn.FinalApplicationStatusProto_APP_FAILED {
		t.Errorf("unregistrations %v; want one, FAILED", f.finished)
	}
}
