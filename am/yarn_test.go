package am

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// fakeRM answers allocate from a script: respond gets the call's number
// (from 0) and request. Asked to forget, its next allocate answers that
// the application master is not registered, as a restarted RM does.
type fakeRM struct {
	mu         sync.Mutex
	allocates  []*hadoopyarn.AllocateRequestProto
	registered int
	forget     bool
	respond    func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto
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
		f.allocates = append(f.allocates, req)
		if f.forget {
			f.forget = false
			return nil, &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException", Message: "restarted"}
		}
		resp := &hadoopyarn.AllocateResponseProto{}
		if f.respond != nil {
			resp = f.respond(len(f.allocates)-1, req)
		}
		resp.ResponseId = proto.Int32(req.GetResponseId() + 1)
		return resp, nil
	}
	return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: method}
}

// requests returns the allocates so far.
func (f *fakeRM) requests() []*hadoopyarn.AllocateRequestProto {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.allocates)
}

// fakeNM is a NodeManager that accepts every container, noting each
// launch's environment.
type fakeNM struct {
	node *hadoopyarn.NodeIdProto
	mu   sync.Mutex
	envs []map[string]string
}

func startNM(t *testing.T) *fakeNM {
	nm := &fakeNM{}
	srv := &ipctest.Server{Protocol: yarn.ContainerManagementProtocol, Handler: func(method string, body []byte) (proto.Message, error) {
		req := &hadoopyarn.StartContainersRequestProto{}
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, err
		}
		env := map[string]string{}
		for _, kv := range req.GetStartContainerRequest()[0].GetContainerLaunchContext().GetEnvironment() {
			env[kv.GetKey()] = kv.GetValue()
		}
		nm.mu.Lock()
		nm.envs = append(nm.envs, env)
		nm.mu.Unlock()
		return &hadoopyarn.StartContainersResponseProto{}, nil
	}}
	host, port, _ := net.SplitHostPort(srv.Start(t))
	p, _ := strconv.Atoi(port)
	nm.node = &hadoopyarn.NodeIdProto{Host: proto.String(host), Port: proto.Int32(int32(p))}
	return nm
}

func (nm *fakeNM) launches() []map[string]string {
	nm.mu.Lock()
	defer nm.mu.Unlock()
	return slices.Clone(nm.envs)
}

func (nm *fakeNM) token() *hadoopyarn.NMTokenProto {
	return &hadoopyarn.NMTokenProto{NodeId: nm.node, Token: &hadoopcommon.TokenProto{Identifier: []byte{1}, Password: []byte{2},
		Kind: proto.String(yarn.NMTokenKind), Service: proto.String(nodemanager.NodeID(nm.node))}}
}

func containerID(n int64) *hadoopyarn.ContainerIdProto {
	app := &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795251528476), Id: proto.Int32(1)}
	return &hadoopyarn.ContainerIdProto{AppId: app, AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{ApplicationId: app, AttemptId: proto.Int32(1)}, Id: proto.Int64(n)}
}

func allocated(n int64, nm *fakeNM, ask int64) *hadoopyarn.ContainerProto {
	return &hadoopyarn.ContainerProto{Id: containerID(n), NodeId: nm.node, AllocationRequestId: proto.Int64(ask)}
}

func exited(n int64, status int32, diag string) *hadoopyarn.ContainerStatusProto {
	return &hadoopyarn.ContainerStatusProto{ContainerId: containerID(n), State: hadoopyarn.ContainerStateProto_C_COMPLETE.Enum(),
		ExitStatus: proto.Int32(status), Diagnostics: proto.String(diag)}
}

// newContainers connects Containers to a fake RM; run it with run.
func newContainers(t *testing.T, f *fakeRM, c *Containers) *Containers {
	srv := &ipctest.Server{Protocol: yarn.ApplicationMasterProtocol, Handler: f.handle}
	addr := srv.Start(t)
	opts := ipc.Options{Auth: ipc.Auth{User: "am", Tokens: []*hadoopcommon.TokenProto{}}}
	rm, err := yarn.NewAMRMClient([]string{addr}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	c.RM = rm
	c.Launcher = nodemanager.New(opts, &hadoopyarn.ContainerLaunchContextProto{}, 2)
	c.Heartbeat = 20 * time.Millisecond
	c.Register = func(ctx context.Context) error {
		_, err := rm.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{})
		return err
	}
	c.Init()
	return c
}

// run runs c until until holds (or 5s pass), then stops it and returns
// what Run returned.
func run(t *testing.T, c *Containers, until func() bool) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for !until() {
		select {
		case err := <-done:
			cancel()
			return err
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("timed out; Run returned %v", <-done)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	return <-done
}

func TestContainersReRegisterAfterTheRMForgetsThem(t *testing.T) {
	f := &fakeRM{forget: true}
	c := newContainers(t, f, &Containers{Profiles: []scheduler.Profile{{Cores: 2, MemoryMB: 512, GPUs: 1}},
		Initial: map[scheduler.ProfileID]int{0: 3}, MaxGPUsPerNode: 4, Progress: func() float32 { return 0.25 }})
	if err := run(t, c, func() bool { return len(f.requests()) >= 3 }); err != nil {
		t.Fatal(err)
	}
	if f.registered != 1 {
		t.Fatalf("registered %d times after the RM forgot the AM, want 1", f.registered)
	}
	// After registering again the conversation starts over at response id 0
	// and the whole ask is sent anew.
	reqs := f.requests()
	next := reqs[1]
	if next.GetResponseId() != 0 {
		t.Errorf("first allocate after re-registering sent responseId %d, want 0", next.GetResponseId())
	}
	if len(next.GetAsk()) != 1 || next.GetAsk()[0].GetNumContainers() != 3 || next.GetAsk()[0].GetAllocationRequestId() != 1 {
		t.Errorf("ask after re-registering: %v, want 3 containers with allocation request id 1", next.GetAsk())
	}
	if gpus := yarn.ResourceValue(next.GetAsk()[0].GetCapability(), yarn.GPU); gpus != 1 {
		t.Errorf("ask carries %d %s, want 1", gpus, yarn.GPU)
	}
	if p := next.GetProgress(); p != 0.25 {
		t.Errorf("allocate reported progress %v, want the job's 0.25", p)
	}
	// Later allocates echo the response id the RM gave.
	if got, want := reqs[2].GetResponseId(), int32(1); got != want {
		t.Errorf("responseId %d, want %d echoed", got, want)
	}
}

// Two profiles make two asks with their own priorities and allocation
// request ids; a container is launched as the profile of the ask it fills.
func TestContainersAskPerProfile(t *testing.T) {
	nm := startNM(t)
	f := &fakeRM{respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		if n == 0 {
			return &hadoopyarn.AllocateResponseProto{NmTokens: []*hadoopyarn.NMTokenProto{nm.token()},
				AllocatedContainers: []*hadoopyarn.ContainerProto{allocated(1, nm, 2), allocated(2, nm, 1), allocated(3, nm, 2)}}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	c := newContainers(t, f, &Containers{MaxGPUsPerNode: 4, Profiles: []scheduler.Profile{{ID: 0, Cores: 1, MemoryMB: 256}, {ID: 1, Cores: 2, MemoryMB: 512, GPUs: 2}},
		Initial: map[scheduler.ProfileID]int{0: 1, 1: 1}, NodeLabel: "gpu"})
	if err := run(t, c, func() bool { return len(nm.launches()) == 2 && len(f.requests()) >= 2 }); err != nil {
		t.Fatal(err)
	}
	asks := f.requests()[0].GetAsk()
	if len(asks) != 2 {
		t.Fatalf("asks %v, want one per profile", asks)
	}
	for i, a := range asks {
		if a.GetPriority().GetPriority() != int32(i+1) || a.GetAllocationRequestId() != int64(i+1) || a.GetNumContainers() != 1 || a.GetNodeLabelExpression() != "gpu" {
			t.Errorf("ask %d: %v", i, a)
		}
	}
	if g := yarn.ResourceValue(asks[1].GetCapability(), yarn.GPU); g != 2 || asks[1].GetCapability().GetVirtualCores() != 2 {
		t.Errorf("profile 1's ask %v, want 2 vcores and 2 GPUs", asks[1].GetCapability())
	}
	// Container 3 filled profile 1's ask a second time: surplus, released.
	if rel := f.requests()[1].GetRelease(); len(rel) != 1 || rel[0].GetId() != 3 {
		t.Errorf("released %v, want container 3", rel)
	}
	byID := map[string]map[string]string{}
	for _, env := range nm.launches() {
		byID[env["SPINDLE_EXECUTOR_ID"]] = env
	}
	c1, c2 := yarn.ContainerID(containerID(1)), yarn.ContainerID(containerID(2))
	if e := byID[c1]; e["SPINDLE_EXECUTOR_GPUS"] != "2" || e["SPINDLE_EXECUTOR_CORES"] != "2" || e[executor.EnvAMGPUIndices] != "0,1" {
		t.Errorf("container 1 launched with %v, want profile 1's 2 cores and GPU indices 0,1", e)
	}
	if e := byID[c2]; e["SPINDLE_EXECUTOR_GPUS"] != "0" || e["SPINDLE_EXECUTOR_CORES"] != "1" {
		t.Errorf("container 2 launched with %v, want profile 0's", e)
	}
	if p, ok := c.ProfileOf(scheduler.ExecutorID(c1)); !ok || p != 1 {
		t.Errorf("ProfileOf(container 1) = %d, %v; want 1", p, ok)
	}
}

// Completed containers become executor losses with Spark's blame; two
// failures on a host exclude it from the asks (the RM's blacklist), and a
// container the RM still allocates there is released.
func TestContainersBlameExitsAndExcludeFailingHosts(t *testing.T) {
	nm1, nm2 := startNM(t), startNM(t) // two NodeManagers on one host, as on the mini cluster
	host := nm1.node.GetHost()
	launched := func() bool { return len(nm1.launches())+len(nm2.launches()) == 3 }
	f := &fakeRM{}
	f.respond = func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		r := &hadoopyarn.AllocateResponseProto{NumClusterNodes: proto.Int32(3)}
		switch {
		case n == 0:
			r.NmTokens = []*hadoopyarn.NMTokenProto{nm1.token(), nm2.token()}
			r.AllocatedContainers = []*hadoopyarn.ContainerProto{allocated(1, nm1, 1), allocated(2, nm2, 1), allocated(3, nm1, 1)}
		case n == 1:
			for !launched() {
				f.mu.Unlock()
				time.Sleep(time.Millisecond)
				f.mu.Lock()
			}
			r.CompletedContainerStatuses = []*hadoopyarn.ContainerStatusProto{
				exited(1, 137, "Container killed on request. Exit code is 137\nmore"),
				exited(2, yarn.ExitKilledExceededPMem, "is running beyond physical memory limits"),
				exited(3, yarn.ExitPreempted, "preempted"),
			}
		case n == 2:
			r.CompletedContainerStatuses = []*hadoopyarn.ContainerStatusProto{exited(4, 1, "")} // never ours: ignored
			r.AllocatedContainers = []*hadoopyarn.ContainerProto{allocated(5, nm1, 1), allocated(6, nm2, 1)}
		case n == 3:
			for len(nm1.launches())+len(nm2.launches()) < 5 {
				f.mu.Unlock()
				time.Sleep(time.Millisecond)
				f.mu.Lock()
			}
			r.CompletedContainerStatuses = []*hadoopyarn.ContainerStatusProto{exited(5, 1, "")}
		case n == 4:
			r.AllocatedContainers = []*hadoopyarn.ContainerProto{allocated(7, nm2, 1)}
		}
		return r
	}
	var mu sync.Mutex
	losses := map[string]scheduler.ExecutorLoss{}
	c := newContainers(t, f, &Containers{MaxGPUsPerNode: 4, Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 256, GPUs: 1}},
		Initial: map[scheduler.ProfileID]int{0: 3}, MaxFailuresPerNode: 2, ExcludeTimeout: time.Hour,
		Ended: func(id scheduler.ExecutorID, loss scheduler.ExecutorLoss) {
			mu.Lock()
			losses[string(id)] = loss
			mu.Unlock()
		}})
	if err := run(t, c, func() bool { return len(f.requests()) >= 6 }); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := map[int64]struct {
		fault  bool
		reason string
	}{
		1: {true, "exited with status 137 (signal 9): Container killed on request. Exit code is 137"},
		2: {true, "killed for exceeding its memory limit (exit status -104"},
		3: {false, "preempted by YARN"},
	}
	for n, w := range want {
		got, ok := losses[yarn.ContainerID(containerID(n))]
		if !ok || got.TaskFault != w.fault || !strings.Contains(got.Reason, w.reason) || strings.Contains(got.Reason, "more") {
			t.Errorf("container %d: loss %+v, %v; want TaskFault %v and %q", n, got, ok, w.fault, w.reason)
		}
	}
	if len(losses) != 4 {
		t.Errorf("losses %v, want containers 1, 2, 3 and 5 only", losses)
	}
	// Only container 1 counts against the host (a memory kill and a
	// preemption do not): the host is not excluded yet; container 5's exit
	// is its second failure, and the next allocate excludes it.
	reqs := f.requests()
	for i, r := range reqs[:4] {
		if b := r.GetBlacklistRequest(); b != nil {
			t.Errorf("allocate %d excluded %v before the host's second failure", i, b)
		}
	}
	if b := reqs[4].GetBlacklistRequest(); !slices.Equal(b.GetBlacklistAdditions(), []string{host}) {
		t.Errorf("allocate 4 blacklist request %v, want %s added", b, host)
	}
	if b := reqs[5].GetBlacklistRequest(); b != nil {
		t.Errorf("allocate 5 sent the exclusion again: %v", b)
	}
	// Container 7, allocated on the excluded host after all, goes back.
	if rel := reqs[5].GetRelease(); len(rel) != 1 || rel[0].GetId() != 7 {
		t.Errorf("allocate 5 released %v, want container 7", rel)
	}
	if got := len(nm1.launches()) + len(nm2.launches()); got != 5 {
		t.Errorf("%d launches, want 5 (none on the excluded host)", got)
	}
}

// Launches that fail count as executor failures; once every node is
// excluded the application cannot go on, and Run says why. Where the RM
// names nodes host:port, that is what is excluded; otherwise the host.
func TestContainersGiveUpWhenEveryNodeIsExcluded(t *testing.T) {
	for _, portInName := range []bool{false, true} {
		nm1, nm2 := startNM(t), startNM(t)
		f := &fakeRM{respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
			r := &hadoopyarn.AllocateResponseProto{NumClusterNodes: proto.Int32(2)}
			if n < 2 { // no NMTokens: the launches fail
				r.AllocatedContainers = []*hadoopyarn.ContainerProto{allocated(int64(2*n+1), nm1, 1), allocated(int64(2*n+2), nm2, 1)}
			}
			return r
		}}
		var logged []string
		var mu sync.Mutex
		c := newContainers(t, f, &Containers{MaxGPUsPerNode: 4, Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 256}},
			Initial: map[scheduler.ProfileID]int{0: 2}, MaxFailuresPerNode: 2, ExcludeTimeout: time.Hour, PortInNodeName: portInName,
			Log: func(format string, args ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(format, args...))
				mu.Unlock()
			}})
		err := run(t, c, func() bool { return false })
		if err == nil || !strings.Contains(err.Error(), "every node is excluded") || !strings.Contains(err.Error(), "launch failed: no NMToken for node") {
			t.Fatalf("port in name %v: Run = %v, want it to give up naming the exclusion and the last failure", portInName, err)
		}
		excluded := []string{nm1.node.GetHost()}
		if portInName {
			excluded = []string{nodemanager.NodeID(nm1.node), nodemanager.NodeID(nm2.node)}
			slices.Sort(excluded)
		}
		if !strings.Contains(err.Error(), fmt.Sprint(excluded)) {
			t.Errorf("port in name %v: %v does not name %v as excluded", portInName, err, excluded)
		}
		mu.Lock()
		if len(logged) < 2 || !strings.Contains(logged[0], "launch failed") {
			t.Errorf("logged %q, want the launch failures", logged)
		}
		mu.Unlock()
		// The failed launches were released and asked for again.
		reqs := f.requests()
		if rel := reqs[1].GetRelease(); len(rel) != 2 || reqs[1].GetAsk()[0].GetNumContainers() != 2 {
			t.Errorf("after two failed launches: released %v, asked %d; want both released and asked for again", rel, reqs[1].GetAsk()[0].GetNumContainers())
		}
	}
}

func TestNodeHealthExcludesExpiresAndGivesUp(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := newNodeHealth(2, time.Minute, 5)
	h.seen("a:1", "a")
	h.failed(t0, "b:1", "b", "x")
	if add, _ := h.changes(); len(add) != 0 {
		t.Fatalf("excluded %v after one failure", add)
	}
	h.failed(t0, "b:2", "b", "launch failed: refused")
	if add, _ := h.changes(); !slices.Equal(add, []string{"b"}) || !h.isExcluded("b") {
		t.Fatalf("excluded %v, want host b after two failures on its NodeManagers", add)
	}
	if add, _ := h.changes(); add != nil {
		t.Fatalf("additions sent twice: %v", add)
	}
	if why := h.giveUp(3); why != "" {
		t.Fatalf("gave up with a node of three still usable: %s", why)
	}
	if why := h.giveUp(2); !strings.Contains(why, "every node is excluded") || !strings.Contains(why, "launch failed: refused (node b:2)") {
		t.Fatalf("giveUp(2) = %q", why)
	}
	h.expire(t0.Add(59 * time.Second))
	if _, rm := h.changes(); rm != nil {
		t.Fatalf("lifted %v early", rm)
	}
	h.expire(t0.Add(time.Minute))
	if _, rm := h.changes(); !slices.Equal(rm, []string{"b"}) || h.isExcluded("b") {
		t.Fatalf("lifted %v, want b after the timeout", rm)
	}
	for i := range 3 {
		h.failed(t0, fmt.Sprintf("c:%d", i), "c", "boom")
	}
	if why := h.giveUp(100); !strings.Contains(why, "5 executor failures, spindle.executor.maxNumFailures (5) reached") {
		t.Fatalf("giveUp after 5 failures = %q", why)
	}
}

// While containers are owed the heartbeat starts eager and backs off to
// the configured interval; once none are, it waits the interval and the
// next shortage starts eager again.
func TestContainersHeartbeatBacksOff(t *testing.T) {
	c := &Containers{Heartbeat: time.Second, InitialAllocation: 200 * time.Millisecond}
	var waits []time.Duration
	eager := c.InitialAllocation
	for _, pending := range []bool{true, true, true, true, true, false, true} {
		var w time.Duration
		w, eager = c.nextWait(pending, eager)
		waits = append(waits, w)
	}
	ms := time.Millisecond
	want := []time.Duration{200 * ms, 400 * ms, 800 * ms, time.Second, time.Second, time.Second, 200 * ms}
	if !slices.Equal(waits, want) {
		t.Fatalf("waits %v, want %v", waits, want)
	}
}

// AM_RESYNC (older RMs' way to say they restarted) registers again;
// AM_SHUTDOWN ends Run with the reason.
func TestContainersObeyTheRMsCommands(t *testing.T) {
	f := &fakeRM{respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		switch n {
		case 0:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_RESYNC.Enum()}
		case 2:
			return &hadoopyarn.AllocateResponseProto{AMCommand: hadoopyarn.AMCommandProto_AM_SHUTDOWN.Enum()}
		}
		return &hadoopyarn.AllocateResponseProto{}
	}}
	c := newContainers(t, f, &Containers{Profiles: []scheduler.Profile{{Cores: 1, MemoryMB: 256}}, Initial: map[scheduler.ProfileID]int{0: 1}})
	err := run(t, c, func() bool { return false })
	if err == nil || !strings.Contains(err.Error(), "AM_SHUTDOWN") {
		t.Fatalf("Run = %v, want it to stop on AM_SHUTDOWN", err)
	}
	if f.registered != 1 || f.requests()[1].GetResponseId() != 0 {
		t.Fatalf("after AM_RESYNC: registered %d times, next responseId %d; want 1 and 0", f.registered, f.requests()[1].GetResponseId())
	}
}
