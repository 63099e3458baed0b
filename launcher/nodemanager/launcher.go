package nodemanager

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Launcher starts containers through their NodeManagers. Its methods
// are for one goroutine (the AM's loop, which owns what they touch); only
// the starts themselves run elsewhere, with what Start handed them.
type Launcher struct {
	// Options say how to reach NodeManagers; each call adds its node's
	// NMToken.
	Options ipc.Options
	// Launch is the part of the launch context every container shares;
	// SetTokens replaces it, never changes it, as starts under way hold
	// it.
	Launch *hadoopyarn.ContainerLaunchContextProto

	tokens map[string]*hadoopcommon.TokenProto // NodeId → NMToken
	slots  chan struct{}
}

// New returns a launcher running at most parallel startContainers calls at
// once (8 when parallel < 1).
func New(opts ipc.Options, launch *hadoopyarn.ContainerLaunchContextProto, parallel int) *Launcher {
	if parallel < 1 {
		parallel = 8
	}
	return &Launcher{Options: opts, Launch: launch, tokens: map[string]*hadoopcommon.TokenProto{}, slots: make(chan struct{}, parallel)}
}

// NodeID is a NodeId as host:port, the address of its NodeManager.
func NodeID(n *hadoopyarn.NodeIdProto) string {
	return fmt.Sprintf("%s:%d", n.GetHost(), n.GetPort())
}

// AddTokens keeps the NMTokens of an allocate response.
func (l *Launcher) AddTokens(tokens []*hadoopyarn.NMTokenProto) {
	for _, t := range tokens {
		l.tokens[NodeID(t.GetNodeId())] = t.GetToken()
	}
}

// SetTokens makes tokens (fresh delegation tokens) those of the
// containers started from now on, in place of the launch context's own;
// its secrets stay.
func (l *Launcher) SetTokens(tokens []credentials.Token) error {
	creds, err := credentials.Read(bytes.NewReader(l.Launch.GetTokens()))
	if err != nil {
		return fmt.Errorf("the executors' launch context: %w", err)
	}
	creds.Tokens = tokens
	file, err := creds.Bytes()
	if err != nil {
		return err
	}
	launch := proto.Clone(l.Launch).(*hadoopyarn.ContainerLaunchContextProto)
	launch.Tokens = file
	l.Launch = launch
	return nil
}

// Start launches container ct with the shared launch context plus env, in
// the background; done gets nil once the NodeManager has accepted it, or
// why it did not. A queued launch waits for a free slot or ctx.
func (l *Launcher) Start(ctx context.Context, ct *hadoopyarn.ContainerProto, env map[string]string, done func(error)) {
	node := NodeID(ct.GetNodeId())
	token, shared := l.tokens[node], l.Launch
	go func() {
		select {
		case l.slots <- struct{}{}:
		case <-ctx.Done():
			done(ctx.Err())
			return
		}
		defer func() { <-l.slots }()
		done(l.start(ctx, ct, node, token, shared, env))
	}()
}

func (l *Launcher) start(ctx context.Context, ct *hadoopyarn.ContainerProto, node string, token *hadoopcommon.TokenProto,
	shared *hadoopyarn.ContainerLaunchContextProto, env map[string]string) error {
	if token == nil {
		return fmt.Errorf("no NMToken for node %s", node)
	}
	nm, err := yarn.NewNMClient(node, token, l.Options)
	if err != nil {
		return err
	}
	defer nm.Close()
	launch := proto.Clone(shared).(*hadoopyarn.ContainerLaunchContextProto)
	for _, k := range slices.Sorted(maps.Keys(env)) { // the same launch, the same request
		launch.Environment = append(launch.Environment, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(env[k])})
	}
	resp, err := nm.StartContainers(ctx, &hadoopyarn.StartContainersRequestProto{StartContainerRequest: []*hadoopyarn.StartContainerRequestProto{{
		ContainerLaunchContext: launch, ContainerToken: ct.GetContainerToken(),
	}}})
	if err != nil {
		return fmt.Errorf("startContainers on %s: %w", node, err)
	}
	if f := resp.GetFailedRequests(); len(f) > 0 {
		ex := f[0].GetException()
		return fmt.Errorf("NodeManager %s refused the container: %s: %s", node, ex.GetClassName(), ex.GetMessage())
	}
	return nil
}
