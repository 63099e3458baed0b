package yarn

import (
	"context"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// ApplicationClient speaks ApplicationClientProtocol to the ResourceManager
// (yarn.resourcemanager.address; several addresses under RM HA).
type ApplicationClient struct{ c *ipc.Client }

// NewApplicationClient returns a client for the ResourceManagers at addrs.
func NewApplicationClient(addrs []string, opts ipc.Options) (*ApplicationClient, error) {
	c, err := newClient(addrs, opts, ApplicationClientProtocol, "RM_DELEGATION_TOKEN")
	if err != nil {
		return nil, err
	}
	return &ApplicationClient{c}, nil
}

func (a *ApplicationClient) GetNewApplication(ctx context.Context, req *hadoopyarn.GetNewApplicationRequestProto) (*hadoopyarn.GetNewApplicationResponseProto, error) {
	return invoke[hadoopyarn.GetNewApplicationResponseProto](ctx, a.c, "getNewApplication", req, mutating)
}

func (a *ApplicationClient) SubmitApplication(ctx context.Context, req *hadoopyarn.SubmitApplicationRequestProto) (*hadoopyarn.SubmitApplicationResponseProto, error) {
	return invoke[hadoopyarn.SubmitApplicationResponseProto](ctx, a.c, "submitApplication", req, mutating)
}

func (a *ApplicationClient) GetApplicationReport(ctx context.Context, req *hadoopyarn.GetApplicationReportRequestProto) (*hadoopyarn.GetApplicationReportResponseProto, error) {
	return invoke[hadoopyarn.GetApplicationReportResponseProto](ctx, a.c, "getApplicationReport", req, readOnly)
}

func (a *ApplicationClient) GetApplications(ctx context.Context, req *hadoopyarn.GetApplicationsRequestProto) (*hadoopyarn.GetApplicationsResponseProto, error) {
	return invoke[hadoopyarn.GetApplicationsResponseProto](ctx, a.c, "getApplications", req, readOnly)
}

func (a *ApplicationClient) ForceKillApplication(ctx context.Context, req *hadoopyarn.KillApplicationRequestProto) (*hadoopyarn.KillApplicationResponseProto, error) {
	return invoke[hadoopyarn.KillApplicationResponseProto](ctx, a.c, "forceKillApplication", req, mutating)
}

func (a *ApplicationClient) GetClusterMetrics(ctx context.Context, req *hadoopyarn.GetClusterMetricsRequestProto) (*hadoopyarn.GetClusterMetricsResponseProto, error) {
	return invoke[hadoopyarn.GetClusterMetricsResponseProto](ctx, a.c, "getClusterMetrics", req, readOnly)
}

func (a *ApplicationClient) GetClusterNodes(ctx context.Context, req *hadoopyarn.GetClusterNodesRequestProto) (*hadoopyarn.GetClusterNodesResponseProto, error) {
	return invoke[hadoopyarn.GetClusterNodesResponseProto](ctx, a.c, "getClusterNodes", req, readOnly)
}

func (a *ApplicationClient) GetResourceTypeInfo(ctx context.Context, req *hadoopyarn.GetAllResourceTypeInfoRequestProto) (*hadoopyarn.GetAllResourceTypeInfoResponseProto, error) {
	return invoke[hadoopyarn.GetAllResourceTypeInfoResponseProto](ctx, a.c, "getResourceTypeInfo", req, readOnly)
}

func (a *ApplicationClient) GetQueueInfo(ctx context.Context, req *hadoopyarn.GetQueueInfoRequestProto) (*hadoopyarn.GetQueueInfoResponseProto, error) {
	return invoke[hadoopyarn.GetQueueInfoResponseProto](ctx, a.c, "getQueueInfo", req, readOnly)
}

// GetApplicationAttempts lists an application's attempts as the RM
// records them: each one's state, finish time and diagnostics (which
// name its AM container's exit status).
func (a *ApplicationClient) GetApplicationAttempts(ctx context.Context, req *hadoopyarn.GetApplicationAttemptsRequestProto) (*hadoopyarn.GetApplicationAttemptsResponseProto, error) {
	return invoke[hadoopyarn.GetApplicationAttemptsResponseProto](ctx, a.c, "getApplicationAttempts", req, readOnly)
}

// Close closes the connection.
func (a *ApplicationClient) Close() error { return a.c.Close() }
