package am_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
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
	f := &amtest.FakeRM{Cut: 5, Respond: shutdown}
	err := runOnYARN(t, f, func(y *am.YARN) { y.RMWait, y.RMRetryInterval = 10*time.Second, 20*time.Millisecond })
	if err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v; want it to reach the RM again and end on its AM_SHUTDOWN", err)
	}
	reqs := f.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d allocates; want 5 cut off and the one answered", len(reqs))
	}
	for i, r := range reqs {
		if r.GetResponseId() != 0 || len(r.GetAsk()) != 1 || r.GetAsk()[0].GetAllocationRequestId() != reqs[0].GetAsk()[0].GetAllocationRequestId() {
			t.Errorf("allocate %d: %v; want the first one again", i, r)
		}
	}

	f = &amtest.FakeRM{Cut: 1, Respond: shutdown}
	if err := runOnYARN(t, f); err == nil || !strings.Contains(err.Error(), "allocate") || len(f.Requests()) != 1 {
		t.Fatalf("without RMWait: Run ended with %v after %d allocates; want the one cut off to fail the application", err, len(f.Requests()))
	}
}

// An RM out of reach for longer than RMWait fails the application, saying
// for how long.
func TestAllocateGivesUpOnAnRMOutOfReachPastRMWait(t *testing.T) {
	f := &amtest.FakeRM{Cut: -1}
	start := time.Now()
	err := runOnYARN(t, f, func(y *am.YARN) { y.RMWait, y.RMRetryInterval = 300*time.Millisecond, 50*time.Millisecond })
	if err == nil || !strings.Contains(err.Error(), "the ResourceManager was out of reach for") {
		t.Fatalf("Run ended with %v; want the RM out of reach to fail the application", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("giving up took %v; want about RMWait (300ms)", took)
	}
	if n := len(f.Requests()); n < 4 || n > 8 {
		t.Errorf("%d allocates in RMWait 300ms, 50ms apart; want about 6", n)
	}
}

// What the RM raised is its answer, not the RM out of reach: it fails the
// application at once, RMWait or not; so does an RM that forgot the
// application and cannot be registered with again for RMWait, while one
// out of reach for a moment then is registered with once it answers.
func TestOnlyAnRMOutOfReachIsTriedAgain(t *testing.T) {
	with := func(y *am.YARN) { y.RMWait, y.RMRetryInterval = 10*time.Second, 20*time.Millisecond }
	f := &amtest.FakeRM{Raise: &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException", Message: "too big"}}
	if err := runOnYARN(t, f, with); err == nil || !strings.Contains(err.Error(), "too big") || len(f.Requests()) != 1 {
		t.Errorf("an allocate the RM refused: Run ended with %v after %d allocates; want it to fail at once", err, len(f.Requests()))
	}

	f = &amtest.FakeRM{Forget: true, CutRegister: 3, Respond: func(n int, _ *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
	}}
	if err := runOnYARN(t, f, with); err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") || f.Registrations() != 1 {
		t.Errorf("registering again cut off 3 times: Run ended with %v, registered %d times; want it registered once it answered, then AM_SHUTDOWN", err, f.Registrations())
	}
}
