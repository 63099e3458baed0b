package am

import (
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// An RM out of reach for a while (allocates cut off in flight, as by a
// restarting RM) is tried again every RMRetryInterval, the same allocate
// with the same response id, and the application goes on once it
// answers: here with AM_SHUTDOWN, which ends it saying so. Without
// RMWait the first allocate cut off fails the application.
func TestAllocateRidesOutAnRMOutOfReach(t *testing.T) {
	shutdown := func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
	}
	f := &fakeRM{cut: 5, respond: shutdown}
	err := ended(t, startYarnDriver(t, f, func(y *YARN) { y.RMWait, y.RMRetryInterval = 10*time.Second, 20*time.Millisecond }))
	if err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v; want it to reach the RM again and end on its AM_SHUTDOWN", err)
	}
	reqs := f.requests()
	if len(reqs) != 6 {
		t.Fatalf("%d allocates; want 5 cut off and the one answered", len(reqs))
	}
	for i, r := range reqs {
		if r.GetResponseId() != 0 || len(r.GetAsk()) != 1 || r.GetAsk()[0].GetAllocationRequestId() != reqs[0].GetAsk()[0].GetAllocationRequestId() {
			t.Errorf("allocate %d: %v; want the first one again", i, r)
		}
	}

	f = &fakeRM{cut: 1, respond: shutdown}
	if err := ended(t, startYarnDriver(t, f)); err == nil || !strings.Contains(err.Error(), "allocate") || len(f.requests()) != 1 {
		t.Fatalf("without RMWait: Run ended with %v after %d allocates; want the one cut off to fail the application", err, len(f.requests()))
	}
}

// An RM out of reach for longer than RMWait fails the application, saying
// for how long.
func TestAllocateGivesUpOnAnRMOutOfReachPastRMWait(t *testing.T) {
	f := &fakeRM{cut: -1}
	start := time.Now()
	err := ended(t, startYarnDriver(t, f, func(y *YARN) { y.RMWait, y.RMRetryInterval = 300*time.Millisecond, 50*time.Millisecond }))
	if err == nil || !strings.Contains(err.Error(), "the ResourceManager was out of reach for") {
		t.Fatalf("Run ended with %v; want the RM out of reach to fail the application", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("giving up took %v; want about RMWait (300ms)", took)
	}
	if n := len(f.requests()); n < 4 || n > 8 {
		t.Errorf("%d allocates in RMWait 300ms, 50ms apart; want about 6", n)
	}
}

// ended waits for a driver's Run to end.
func ended(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the application did not end")
		return nil
	}
}

// What the RM raised is its answer, not the RM out of reach: it fails the
// application at once, RMWait or not; so does an RM that forgot the
// application and cannot be registered with again for RMWait, while one
// out of reach for a moment then is registered with once it answers.
func TestOnlyAnRMOutOfReachIsTriedAgain(t *testing.T) {
	with := func(y *YARN) { y.RMWait, y.RMRetryInterval = 10*time.Second, 20*time.Millisecond }
	f := &fakeRM{raise: &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException", Message: "too big"}}
	if err := ended(t, startYarnDriver(t, f, with)); err == nil || !strings.Contains(err.Error(), "too big") || len(f.requests()) != 1 {
		t.Errorf("an allocate the RM refused: Run ended with %v after %d allocates; want it to fail at once", err, len(f.requests()))
	}

	f = &fakeRM{forget: true, cutRegister: 3, respond: func(n int, _ *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
	}}
	if err := ended(t, startYarnDriver(t, f, with)); err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") || f.registered != 1 {
		t.Errorf("registering again cut off 3 times: Run ended with %v, registered %d times; want it registered once it answered, then AM_SHUTDOWN", err, f.registered)
	}
}

// The RM out of reach is a connection that failed, or was lost, or a
// standby answering where the active RM should; not what an RM raised,
// refused credentials, or the AM's own client closed.
func TestOutOfReach(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("connection lost: %w", io.EOF), true},
		{&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{&ipc.RemoteError{Class: "org.apache.hadoop.ipc.StandbyException"}, true},
		{&ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException"}, false},
		{fmt.Errorf("sasl: %w", ipc.ErrAuthentication), false},
		{net.ErrClosed, false},
	} {
		if got := outOfReach(c.err); got != c.want {
			t.Errorf("outOfReach(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
