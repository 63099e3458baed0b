package yarn

import (
	"context"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// NMClient speaks ContainerManagementProtocol to one NodeManager,
// authenticated by the NMToken the RM issued for that node.
type NMClient struct{ c *ipc.Client }

// NewNMClient returns a client for the NodeManager at addr (its NodeId,
// host:port) that authenticates with nmToken.
func NewNMClient(addr string, nmToken *hadoopcommon.TokenProto, opts ipc.Options) (*NMClient, error) {
	opts.Auth.Tokens = []*hadoopcommon.TokenProto{nmToken}
	c, err := newClient([]string{addr}, opts, ContainerManagementProtocol, NMTokenKind)
	if err != nil {
		return nil, err
	}
	return &NMClient{c}, nil
}

func (n *NMClient) StartContainers(ctx context.Context, req *hadoopyarn.StartContainersRequestProto) (*hadoopyarn.StartContainersResponseProto, error) {
	return invoke[hadoopyarn.StartContainersResponseProto](ctx, n.c, "startContainers", req, mutating)
}

func (n *NMClient) StopContainers(ctx context.Context, req *hadoopyarn.StopContainersRequestProto) (*hadoopyarn.StopContainersResponseProto, error) {
	return invoke[hadoopyarn.StopContainersResponseProto](ctx, n.c, "stopContainers", req, mutating)
}

func (n *NMClient) GetContainerStatuses(ctx context.Context, req *hadoopyarn.GetContainerStatusesRequestProto) (*hadoopyarn.GetContainerStatusesResponseProto, error) {
	return invoke[hadoopyarn.GetContainerStatusesResponseProto](ctx, n.c, "getContainerStatuses", req, readOnly)
}

// Close closes the connection.
func (n *NMClient) Close() error { return n.c.Close() }
