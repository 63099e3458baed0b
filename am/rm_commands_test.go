package am_test

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The loop's side of the AMRM conversation: an RM that forgot the
// application (ApplicationMasterNotRegistered, or AM_RESYNC from older
// RMs) is registered with again, and the next allocate starts over at
// response id 0 with the whole ask; later allocates echo the RM's
// response id; AM_SHUTDOWN ends the application, saying so.
func TestDriverObeysTheRMsCommands(t *testing.T) {
	f := &amtest.FakeRM{Forget: true, Respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch n {
		case 2:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_RESYNC.Enum()}
		case 4:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	err := runOnYARN(t, f)
	if err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run ended with %v, want the application failed by AM_SHUTDOWN", err)
	}
	reqs := f.Requests()
	if f.Registrations() != 2 || len(reqs) < 5 {
		t.Fatalf("registered %d times in %d allocates; want 2 (once per forgetting) in at least 5", f.Registrations(), len(reqs))
	}
	lastID := reqs[0].GetAsk()[0].GetAllocationRequestId()
	for _, i := range []int{1, 3} { // the allocates after registering again
		if reqs[i].GetResponseId() != 0 {
			t.Errorf("allocate %d, after registering again, sent responseId %d, want 0", i, reqs[i].GetResponseId())
		}
		// The RM forgot the asks: all 3 are asked anew, under a new id.
		ask := reqs[i].GetAsk()
		if len(ask) != 1 || ask[0].GetNumContainers() != 3 || ask[0].GetAllocationRequestId() <= lastID || yarn.ResourceValue(ask[0].GetCapability(), yarn.GPU) != 1 {
			t.Errorf("allocate %d asks %v, want 3 containers of 1 %s under an allocation request id above %d", i, ask, yarn.GPU, lastID)
		}
		if len(ask) > 0 {
			lastID = ask[0].GetAllocationRequestId()
		}
	}
	if got := reqs[2].GetResponseId(); got != 1 {
		t.Errorf("allocate 2 sent responseId %d, want the RM's 1 echoed", got)
	}
}
