package nodemanager

import (
	"context"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// stoppingNM is a NodeManager that says a container it was told to stop
// runs for its first statuses (as one being killed does), then answers
// what last says.
type stoppingNM struct {
	mu       sync.Mutex
	calls    []string
	running  int // statuses answered RUNNING before last
	last     *hadoopyarn.GetContainerStatusesResponseProto
	statuses int
}

func (n *stoppingNM) handle(method string, _ []byte) (proto.Message, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls = append(n.calls, method)
	switch method {
	case "stopContainers":
		return &hadoopyarn.StopContainersResponseProto{}, nil
	case "getContainerStatuses":
		n.statuses++
		if n.statuses <= n.running {
			return &hadoopyarn.GetContainerStatusesResponseProto{Status: []*hadoopyarn.ContainerStatusProto{{State: hadoopyarn.ContainerStateProto_C_RUNNING.Enum()}}}, nil
		}
		return n.last, nil
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}

// start serves n and returns a launcher holding its NMToken, and a
// container on it.
func (n *stoppingNM) start(t *testing.T) (*Launcher, *hadoopyarn.ContainerProto) {
	srv := &ipctest.Server{Protocol: yarn.ContainerManagementProtocol, Handler: n.handle}
	host, port, err := net.SplitHostPort(srv.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	node := &hadoopyarn.NodeIdProto{Host: proto.String(host), Port: proto.Int32(int32(p))}
	l := New(ipc.Options{Auth: ipc.Auth{User: "am"}}, &hadoopyarn.ContainerLaunchContextProto{}, 1)
	l.AddTokens([]*hadoopyarn.NMTokenProto{{NodeId: node, Token: &hadoopcommon.TokenProto{Identifier: []byte{}, Password: []byte{},
		Kind: proto.String(yarn.NMTokenKind), Service: proto.String(host + ":" + port)}}})
	return l, &hadoopyarn.ContainerProto{NodeId: node, Id: &hadoopyarn.ContainerIdProto{Id: proto.Int64(2)}}
}

// stopped runs Stop on ct and returns what it said.
func stopped(t *testing.T, l *Launcher, ct *hadoopyarn.ContainerProto, within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	done := make(chan error, 1)
	l.Stop(ctx, ct, func(err error) { done <- err })
	return <-done
}

// A container being stopped is gone only once its NodeManager says it
// completed, or that it no longer has it: its statuses are asked until
// then, after the one stop.
func TestStopWaitsForTheNodeManagerToSayTheContainerIsGone(t *testing.T) {
	for _, c := range []struct {
		name string
		last *hadoopyarn.GetContainerStatusesResponseProto
	}{
		{"completed", &hadoopyarn.GetContainerStatusesResponseProto{Status: []*hadoopyarn.ContainerStatusProto{{State: hadoopyarn.ContainerStateProto_C_COMPLETE.Enum()}}}},
		{"not the NodeManager's", &hadoopyarn.GetContainerStatusesResponseProto{FailedRequests: []*hadoopyarn.ContainerExceptionMapProto{{
			Exception: &hadoopyarn.SerializedExceptionProto{Message: proto.String("Container container_1_0001_01_000002 is not handled by this NodeManager")}}}}},
		{"recently stopped", &hadoopyarn.GetContainerStatusesResponseProto{FailedRequests: []*hadoopyarn.ContainerExceptionMapProto{{
			Exception: &hadoopyarn.SerializedExceptionProto{Message: proto.String("Container container_1_0001_01_000002 was recently stopped on node manager.")}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := &stoppingNM{running: 2, last: c.last}
			l, ct := n.start(t)
			if err := stopped(t, l, ct, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			if want := []string{"stopContainers", "getContainerStatuses", "getContainerStatuses", "getContainerStatuses"}; !slices.Equal(n.calls, want) {
				t.Fatalf("calls %v, want %v", n.calls, want)
			}
		})
	}
}

// A NodeManager that never says the container is gone keeps it
// unconfirmed: Stop gives up only with its context.
func TestStopGivesUpOnlyWithItsContext(t *testing.T) {
	n := &stoppingNM{running: 1 << 30}
	l, ct := n.start(t)
	if err := stopped(t, l, ct, time.Second); err != context.DeadlineExceeded {
		t.Fatalf("Stop said %v; want the context's end", err)
	}
}
