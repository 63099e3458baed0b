package yarn

import (
	"context"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// AMRMClient speaks ApplicationMasterProtocol to the ResourceManager's
// scheduler address, authenticated by the application's AMRMToken (pass it
// in opts.Auth.Tokens).
type AMRMClient struct{ c *ipc.Client }

// NewAMRMClient returns a client for the schedulers at addrs
// (yarn.resourcemanager.scheduler.address; several under RM HA).
func NewAMRMClient(addrs []string, opts ipc.Options) (*AMRMClient, error) {
	c, err := newClient(addrs, opts, ApplicationMasterProtocol, AMRMTokenKind)
	if err != nil {
		return nil, err
	}
	return &AMRMClient{c}, nil
}

func (a *AMRMClient) RegisterApplicationMaster(ctx context.Context, req *hadoopyarn.RegisterApplicationMasterRequestProto) (*hadoopyarn.RegisterApplicationMasterResponseProto, error) {
	return invoke[hadoopyarn.RegisterApplicationMasterResponseProto](ctx, a.c, "registerApplicationMaster", req, mutating)
}

// Allocate sends asks and releases and returns what the scheduler decided.
// When the RM rolls the AMRMToken, the new one is adopted for later
// connections, as the RM expects of an AM.
func (a *AMRMClient) Allocate(ctx context.Context, req *hadoopyarn.AllocateRequestProto) (*hadoopyarn.AllocateResponseProto, error) {
	resp, err := invoke[hadoopyarn.AllocateResponseProto](ctx, a.c, "allocate", req, mutating)
	if err != nil {
		return nil, err
	}
	if t := resp.GetAmRmToken(); t != nil {
		a.c.SetTokens([]*hadoopcommon.TokenProto{t})
	}
	return resp, nil
}

func (a *AMRMClient) FinishApplicationMaster(ctx context.Context, req *hadoopyarn.FinishApplicationMasterRequestProto) (*hadoopyarn.FinishApplicationMasterResponseProto, error) {
	return invoke[hadoopyarn.FinishApplicationMasterResponseProto](ctx, a.c, "finishApplicationMaster", req, mutating)
}

// Close closes the connection.
func (a *AMRMClient) Close() error { return a.c.Close() }
