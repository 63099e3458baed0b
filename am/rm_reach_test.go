package am

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
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
