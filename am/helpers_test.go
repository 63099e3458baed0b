package am

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// What the package's internal tests share. The driver's own tests run it
// with am/amtest, from package am_test; those here test unexported pieces
// (the outbox, the asks), or are the shells' (the AppMaster, client
// authentication, the tracking page), which leave am/ for deploy/ and
// am/webui and can take amtest there: startSessionWith, request, submit,
// jobStates and fakeRM are theirs alone, and go with them.

var (
	testSecret    = []byte("0123456789abcdef0123456789abcdef")
	sessionSecret = []byte("fedcba9876543210fedcba9876543210")
)

// listen listens for executors on the loopback interface, until the test
// ends (or Run closes it).
func listen(t *testing.T, secret []byte) *wire.Listener {
	t.Helper()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

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

// startSessionWith runs a session driver with ClientAuth auth and one
// executor of 2 cores, which succeeds a task whose argv is "true" at once
// and holds any other until it is killed.
func startSessionWith(t *testing.T, auth func(*wire.ClientToken, bool) error) (*Driver, <-chan core.Final) {
	t.Helper()
	d, err := New(Config{Core: core.Config{AppID: "local-session", Session: true, Profiles: []scheduler.Profile{{Cores: 2}}},
		Executors: listen(t, testSecret), Clients: listen(t, sessionSecret), ClientAuth: auth, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ended := make(chan core.Final, 1)
	go func() {
		_, final, _ := d.Run(ctx, nil, nil)
		ended <- final
	}()
	conn, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e1", Host: "h1", Cores: 2}}})
	go func() {
		for {
			m, err := conn.Recv()
			if err != nil {
				return
			}
			var sts []*wire.Status
			for _, l := range m.GetLaunchBatch().GetLaunches() {
				if strings.Join(l.GetArgv(), " ") == "true" {
					sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
				}
			}
			if k := m.GetKill(); k != nil {
				sts = append(sts, &wire.Status{StageId: k.GetStageId(), TaskIndex: k.GetTaskIndex(), Attempt: k.GetAttempt(), State: wire.Status_KILLED})
			}
			if len(sts) > 0 {
				conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
			}
		}
	}()
	return d, ended
}

// request sends one session request and returns the answers until the
// session closes the connection.
func request(t *testing.T, d *Driver, secret []byte, m *wire.Envelope) ([]*wire.Envelope, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), secret)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.Send(m); err != nil {
		return nil, err
	}
	var out []*wire.Envelope
	for {
		r, err := conn.Recv()
		if err != nil {
			return out, nil
		}
		out = append(out, r)
	}
}

func submit(spec string, follow bool) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "test.yaml", Follow: follow, DefaultPool: "default"}}}
}

func jobStates(out []*wire.Envelope) string {
	var s []string
	for _, m := range out {
		for _, j := range m.GetJobList().GetJobs() {
			s = append(s, j.GetName()+"/"+j.GetPool()+"/"+j.GetState())
		}
	}
	return strings.Join(s, " ")
}
