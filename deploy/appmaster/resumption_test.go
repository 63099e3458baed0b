package appmaster

import (
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// Every attempt after the first takes over what the ones before left,
// with or without a journal (an RM that restarted names kept containers
// later, in an allocate); the first only when its journal says
// something. The released containers' wait is the executors' rejoin
// timeout and their tasks' grace to stop, with slack.
func TestEveryLaterAttemptTakesOver(t *testing.T) {
	log, _ := logtest.NewNullLogger()
	a := appMaster{Log: log, Attempt: 1, AdoptWait: 30 * time.Second, KeptStopWait: keptStopWait(time.Minute)}
	empty := journal.NewState("application_1_0001")
	if r := resumption(a, empty, nil); r != nil {
		t.Fatalf("attempt 1 with nothing to take over: %+v", r)
	}
	kept := []*hadoopyarn.ContainerProto{{Id: &hadoopyarn.ContainerIdProto{Id: proto.Int64(2)}}}
	if r := resumption(a, empty, kept); r == nil || len(r.Kept) != 1 {
		t.Fatalf("attempt 1 with a kept container: %+v", r)
	}
	a.Attempt = 2
	r := resumption(a, empty, nil)
	if r == nil || r.State != empty || r.Wait != 30*time.Second || r.Stop != 65*time.Second {
		t.Fatalf("attempt 2 with no journal and nothing kept yet: %+v; want one, waiting 30s for executors and 65s for released containers", r)
	}
}
