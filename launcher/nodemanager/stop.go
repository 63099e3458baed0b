package nodemanager

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// The RM reports a container the application released as completed at
// once, before its NodeManager has even heard of the release: that says
// nothing of whether its processes still run. Only the NodeManager
// knows. Stop asks it to stop the container, and then asks how it is,
// until it says the container completed (its processes exited) or it no
// longer has it.

// stopPoll is how often Stop asks a NodeManager how a container it
// stops is: about what a NodeManager takes to kill one (SIGTERM, then
// SIGKILL 250ms later).
const stopPoll = 250 * time.Millisecond

// stopCallWait bounds one call to a NodeManager: one out of reach is
// tried again.
const stopCallWait = 5 * time.Second

// Stop has container ct's NodeManager stop it, in the background: gone
// gets nil once the NodeManager says the container completed or no
// longer has it, or ctx's error once ctx ends first. A NodeManager out
// of reach, or whose answers say neither, is asked again.
func (l *Launcher) Stop(ctx context.Context, ct *hadoopyarn.ContainerProto, gone func(error)) {
	node := NodeID(ct.GetNodeId())
	token := l.tokens[node]
	go func() { gone(l.stop(ctx, ct.GetId(), node, token)) }()
}

func (l *Launcher) stop(ctx context.Context, id *hadoopyarn.ContainerIdProto, node string, token *hadoopcommon.TokenProto) error {
	if token == nil {
		return fmt.Errorf("no NMToken for node %s", node)
	}
	nm, err := yarn.NewNMClient(node, token, l.Options)
	if err != nil {
		return err
	}
	defer nm.Close()
	ids := []*hadoopyarn.ContainerIdProto{id}
	stopped := false
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	for {
		cctx, cancel := context.WithTimeout(ctx, stopCallWait)
		if !stopped {
			// Once taken, the stop is the NodeManager's to carry out.
			_, err := nm.StopContainers(cctx, &hadoopyarn.StopContainersRequestProto{ContainerId: ids})
			stopped = err == nil
		}
		resp, err := nm.GetContainerStatuses(cctx, &hadoopyarn.GetContainerStatusesRequestProto{ContainerId: ids})
		cancel()
		if err == nil && containerGone(resp) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// containerGone says whether a NodeManager's answer about one container
// says it is gone: it completed, or the NodeManager no longer has it (it
// stopped it a while ago, or never had it).
func containerGone(resp *hadoopyarn.GetContainerStatusesResponseProto) bool {
	for _, st := range resp.GetStatus() {
		if st.GetState() == hadoopyarn.ContainerStateProto_C_COMPLETE {
			return true
		}
	}
	for _, f := range resp.GetFailedRequests() {
		msg := f.GetException().GetMessage()
		if strings.Contains(msg, "is not handled by this NodeManager") || strings.Contains(msg, "was recently stopped") {
			return true
		}
	}
	return false
}
