package appmaster

import (
	"context"
	"fmt"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// registration is the AM's registration with the RM: what it asked,
// which registers it again after an RM restart, and what the RM said.
type registration struct {
	req  *hadoopyarn.RegisterApplicationMasterRequestProto
	resp *hadoopyarn.RegisterApplicationMasterResponseProto
}

// register registers the AM with the RM, giving where its executors, or
// a session's clients, connect (the RPC port) and its tracking page.
func register(ctx context.Context, a appMaster, ls amListeners) (registration, error) {
	req := &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String(a.Host), RpcPort: proto.Int32(int32(ls.rpcPort)),
		TrackingUrl: proto.String(ls.trackingURL(a.Host))}
	resp, err := a.RM.RegisterApplicationMaster(ctx, req)
	if err != nil {
		return registration{}, fmt.Errorf("registering with the ResourceManager: %w", err)
	}
	return registration{req, resp}, nil
}

// driverConfig is the loop's configuration on YARN: the AM's rules with
// the largest container the RM gives, its listeners, the RM and the
// NodeManagers, and on a secure cluster a session's client check.
func driverConfig(a appMaster, ls amListeners, reg registration) (am.Config, error) {
	containers := nodeLimits(a, ls, reg.resp)
	y := &am.YARN{RM: a.RM, Launcher: nodemanager.New(a.NodeManagers, executorLaunch(a, ls.executorPort()), 8), NodeLabel: a.NodeLabel,
		ResourceTypes: a.ResourceTypes, Placement: a.Placement, PortInNodeName: a.PortInNodeName, Tokens: a.Tokens, RMWait: a.RMWait, RMRetryInterval: a.RMRetryInterval,
		AMContainer: a.AMContainer, Register: func(ctx context.Context) error {
			_, err := a.RM.RegisterApplicationMaster(ctx, reg.req)
			return err
		}}
	if a.AMContainer != nil {
		containers.AMContainer, containers.AMNode = yarn.ContainerID(a.AMContainer), a.AMNode
	}
	coreCfg := a.Core
	coreCfg.Containers = &containers
	coreCfg.AMAttempt = a.Attempt
	dcfg := am.Config{Core: coreCfg, Executors: ls.executors, YARN: y, Log: a.Log, Clients: ls.clients, PoolNotice: a.PoolNotice, HandingOver: a.HandingOver,
		Left: a.Terminated}
	y.Launcher.AddTokens(reg.resp.GetNmTokensFromPreviousAttempts())
	if key := reg.resp.GetClientToAmTokenMasterKey(); ls.clients != nil && len(key) > 0 {
		app, err := yarn.ParseApplicationID(a.Core.AppID)
		if err != nil {
			return am.Config{}, err
		}
		dcfg.ClientAuth = clientAuth(yarn.ClientTokenVerifier{MasterKey: key, App: app}, a.ClientACL)
		a.Log.Info("session clients must bring a client-to-AM token (a secure cluster)")
	}
	return dcfg, nil
}

// nodeLimits is a.Core.Containers with what the registration says a
// node can give a container (a session's new shapes must fit it; 0:
// unknown), logged.
func nodeLimits(a appMaster, ls amListeners, reg *hadoopyarn.RegisterApplicationMasterResponseProto) core.ContainerConfig {
	containers := *a.Core.Containers
	containers.Pack = a.Placement.Affinity == yarn.AffinityPack
	most := reg.GetMaximumCapability()
	containers.MaxGPUsPerNode = int(yarn.ResourceValue(most, yarn.GPU))
	if most != nil {
		containers.MaxMemoryMB, containers.MaxCores = yarn.ResourceValue(most, yarn.Memory), int(yarn.ResourceValue(most, yarn.VCores))
	}
	fields := logrus.Fields{"app": a.Core.AppID, "executors": ls.executors.Addr().String(), "tracking_url": ls.trackingURL(a.Host),
		"rpc_port": ls.rpcPort, "max_gpus_per_node": containers.MaxGPUsPerNode}
	containers.MaxAccelsPerNode = map[string]int{}
	for name, t := range a.ResourceTypes {
		containers.MaxAccelsPerNode[name] = int(yarn.ResourceValue(most, t))
		fields["max_"+name+"_per_node"] = containers.MaxAccelsPerNode[name]
	}
	a.Log.WithFields(fields).Info("registered with the ResourceManager")
	return containers
}
