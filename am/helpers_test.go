package am

import (
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// What the package's internal tests share. The driver's own tests run it
// with am/amtest, from package am_test; those here test unexported pieces
// (the outbox, the asks), or are the shells' (the AppMaster, client
// authentication, the tracking page), which leave am/ for deploy/ and
// am/webui and can take amtest there: fakeRM is theirs alone, and goes
// with them.

// fakeRM registers the AM and answers each allocate with nothing new.
type fakeRM struct {
	mu         sync.Mutex
	registered int
}

func (f *fakeRM) handle(method string, body []byte) (proto.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "registerApplicationMaster":
		f.registered++
		return &hadoopyarn.RegisterApplicationMasterResponseProto{}, nil
	case "allocate":
		req := &hadoopyarn.AllocateRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		return &hadoopyarn.AllocateResponseProto{ResponseId: proto.Int32(req.GetResponseId() + 1)}, nil
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}
