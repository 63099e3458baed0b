package ipc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
)

const testProtocol = "org.example.TestProtocolPB"

// echo answers every call with its request, a UserInformationProto.
func echo(method string, body []byte) (proto.Message, error) {
	req := &hadoopcommon.UserInformationProto{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, err
	}
	return &hadoopcommon.UserInformationProto{EffectiveUser: proto.String(method + ":" + req.GetEffectiveUser())}, nil
}

func newClient(t *testing.T, addrs []string, mod func(*ipc.Options)) *ipc.Client {
	t.Helper()
	opts := ipc.Options{Protocol: testProtocol, Auth: ipc.Auth{User: "alice"}, FailoverBackoff: 10 * time.Millisecond}
	if mod != nil {
		mod(&opts)
	}
	c, err := ipc.NewClient(addrs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(ctx context.Context, c *ipc.Client, method, arg string) (string, error) {
	resp := &hadoopcommon.UserInformationProto{}
	err := c.Call(ctx, method, &hadoopcommon.UserInformationProto{EffectiveUser: proto.String(arg)}, resp)
	return resp.GetEffectiveUser(), err
}

func TestCallSendsUserAndDecodesResponse(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	c := newClient(t, []string{srv.Start(t)}, nil)
	got, err := call(context.Background(), c, "greet", "bob")
	if err != nil {
		t.Fatal(err)
	}
	if got != "greet:bob" {
		t.Fatalf("response %q, want greet:bob", got)
	}
	if users := srv.Users(); len(users) != 1 || users[0] != "alice" {
		t.Fatalf("connection contexts named users %v, want [alice]", users)
	}
}

func TestConcurrentCallsShareOneConnectionAndGetTheirOwnAnswers(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		req := &hadoopcommon.UserInformationProto{}
		proto.Unmarshal(body, req)
		// Later requests answer sooner, so responses come back out of order.
		n, _ := strconv.Atoi(req.GetEffectiveUser())
		time.Sleep(time.Duration(40-n) * time.Millisecond)
		return echo(method, body)
	}}
	c := newClient(t, []string{srv.Start(t)}, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got, err := call(context.Background(), c, "m", strconv.Itoa(i))
			if err == nil && got != "m:"+strconv.Itoa(i) {
				err = fmt.Errorf("call %d got %q", i, got)
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := srv.Connections(); n != 1 {
		t.Errorf("%d connections, want 1 shared by all calls", n)
	}
}

func TestRemoteErrorCarriesClassAndMatchesSentinel(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: func(string, []byte) (proto.Message, error) {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException", Message: "Application with id 'application_1_0001' doesn't exist in RM."}
	}}
	c := newClient(t, []string{srv.Start(t)}, nil)
	_, err := call(context.Background(), c, "getApplicationReport", "x")
	if !errors.Is(err, ipc.ErrApplicationNotFound) {
		t.Fatalf("err = %v, want ErrApplicationNotFound", err)
	}
	if errors.Is(err, ipc.ErrStandby) {
		t.Fatalf("err %v also matches ErrStandby", err)
	}
	var re *ipc.RemoteError
	if !errors.As(err, &re) || re.Message != "Application with id 'application_1_0001' doesn't exist in RM." {
		t.Fatalf("err = %#v, want the server's message", err)
	}
	// The connection survives an ordinary (non-fatal) error.
	if _, err := call(context.Background(), c, "again", "x"); !errors.Is(err, ipc.ErrApplicationNotFound) {
		t.Fatalf("second call: %v", err)
	}
	if n := srv.Connections(); n != 1 {
		t.Fatalf("%d connections after a remote error, want 1", n)
	}
}

func TestUnknownProtocolIsRemoteError(t *testing.T) {
	srv := &ipctest.Server{Protocol: "other.ProtocolPB", Handler: echo}
	c := newClient(t, []string{srv.Start(t)}, nil)
	_, err := call(context.Background(), c, "m", "x")
	var re *ipc.RemoteError
	if !errors.As(err, &re) || re.Class != "org.apache.hadoop.ipc.RpcNoSuchProtocolException" {
		t.Fatalf("err = %v, want RpcNoSuchProtocolException", err)
	}
}

func TestDeadlineEndsAWaitingCallAndTheConnectionLivesOn(t *testing.T) {
	release := make(chan struct{})
	srv := &ipctest.Server{Protocol: testProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		if method == "slow" {
			<-release
		}
		return echo(method, body)
	}}
	defer close(release)
	c := newClient(t, []string{srv.Start(t)}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := call(ctx, c, "slow", "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if got, err := call(context.Background(), c, "fast", "y"); err != nil || got != "fast:y" {
		t.Fatalf("call after a timed-out one: %q, %v", got, err)
	}
}

func TestCanceledContextStopsTheCall(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		time.Sleep(time.Second)
		return echo(method, body)
	}}
	c := newClient(t, []string{srv.Start(t)}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	if _, err := call(ctx, c, "m", "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	if time.Since(start) > 500*time.Millisecond {
		t.Fatal("cancel did not end the call promptly")
	}
}

func TestIdleConnectionPings(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	c := newClient(t, []string{srv.Start(t)}, func(o *ipc.Options) { o.PingInterval = 20 * time.Millisecond })
	if _, err := call(context.Background(), c, "m", "x"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for srv.Pings() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d pings after 2s idle with a 20ms interval", srv.Pings())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestReconnectsAfterTheServerDropsTheConnection(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	c := newClient(t, []string{srv.Start(t)}, nil)
	if _, err := call(context.Background(), c, "m", "1"); err != nil {
		t.Fatal(err)
	}
	srv.DropConnections()
	// The client notices the close, and the next call opens a new connection.
	deadline := time.Now().Add(2 * time.Second)
	for {
		got, err := call(context.Background(), c, "m", "2")
		if err == nil && got == "m:2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no successful call after the server dropped the connection: %v", err)
		}
	}
	if n := srv.Connections(); n != 2 {
		t.Fatalf("%d connections, want 2 (one reconnect)", n)
	}
}

func TestConnectionLostWhileWaitingIsReported(t *testing.T) {
	var srv *ipctest.Server
	srv = &ipctest.Server{Protocol: testProtocol, Handler: func(string, []byte) (proto.Message, error) {
		srv.DropConnections()
		time.Sleep(100 * time.Millisecond)
		return &hadoopcommon.UserInformationProto{}, nil
	}}
	c := newClient(t, []string{srv.Start(t)}, nil)
	_, err := call(context.Background(), c, "m", "x")
	if !errors.Is(err, ipc.ErrConnectionLost) {
		t.Fatalf("err = %v, want ErrConnectionLost", err)
	}
}

func standby(string, []byte) (proto.Message, error) {
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.StandbyException", Message: "Operation category READ is not supported in state standby"}
}

func TestFailsOverFromAStandbyResourceManager(t *testing.T) {
	standbyRM := &ipctest.Server{Protocol: testProtocol, Handler: standby}
	activeRM := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	a, b := standbyRM.Start(t), activeRM.Start(t)
	c := newClient(t, []string{a, b}, nil)
	got, err := call(context.Background(), c, "m", "x")
	if err != nil || got != "m:x" {
		t.Fatalf("call = %q, %v; want the active RM's answer", got, err)
	}
	if c.Addr() != b {
		t.Fatalf("client talks to %s, want the active RM %s", c.Addr(), b)
	}
	// It stays with the active one.
	if _, err := call(context.Background(), c, "m", "y"); err != nil {
		t.Fatal(err)
	}
	if n := standbyRM.Connections(); n != 1 {
		t.Fatalf("standby RM saw %d connections, want 1", n)
	}
}

func TestFailsOverFromAnUnreachableResourceManager(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	activeRM := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	live := activeRM.Start(t)
	c := newClient(t, []string{dead, live}, nil)
	if got, err := call(context.Background(), c, "m", "x"); err != nil || got != "m:x" {
		t.Fatalf("call = %q, %v; want the live RM's answer", got, err)
	}
}

func TestGivesUpWhenEveryResourceManagerIsStandby(t *testing.T) {
	s1 := &ipctest.Server{Protocol: testProtocol, Handler: standby}
	s2 := &ipctest.Server{Protocol: testProtocol, Handler: standby}
	c := newClient(t, []string{s1.Start(t), s2.Start(t)}, func(o *ipc.Options) { o.FailoverRounds = 2 })
	_, err := call(context.Background(), c, "m", "x")
	if !errors.Is(err, ipc.ErrStandby) {
		t.Fatalf("err = %v, want ErrStandby", err)
	}
}

func TestSingleServerStandbyIsReturnedAtOnce(t *testing.T) {
	s := &ipctest.Server{Protocol: testProtocol, Handler: standby}
	c := newClient(t, []string{s.Start(t)}, nil)
	if _, err := call(context.Background(), c, "m", "x"); !errors.Is(err, ipc.ErrStandby) {
		t.Fatalf("err = %v, want ErrStandby", err)
	}
	if n := s.Connections(); n != 1 {
		t.Fatalf("%d connections, want 1: nothing to fail over to", n)
	}
}
