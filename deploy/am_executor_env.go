package deploy

import (
	"sort"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// executorEnvironment is what the AM puts in every executor container's
// launch context, sorted by name: spindle.executorEnv (which the container,
// and so its tasks, inherit, over what the NodeManager gives), then the
// launch variables. The NodeManager adds its own (CONTAINER_ID, NM_HOST,
// LOCAL_DIRS, LOG_DIRS, …) and its whitelist's.
func executorEnvironment(conf *config.Config, driverAddr, appID string) ([]*hadoopyarn.StringStringMapProto, error) {
	script, err := conf.String("spindle.executor.resource.gpu.discoveryScript")
	if err != nil {
		return nil, err
	}
	logCap, err := conf.Bytes("spindle.task.log.maxBytes")
	if err != nil {
		return nil, err
	}
	env := conf.Prefixed(config.ExecutorEnvPrefix)
	env[executor.EnvDriverAddress] = driverAddr
	env[executor.EnvAppID] = appID
	env[executor.EnvSecretFrom] = "credentials"
	env[executor.EnvTaskLogMaxBytes] = strconv.FormatInt(logCap, 10)
	if script != "" {
		env[executor.EnvGPUDiscoveryScript] = script
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]*hadoopyarn.StringStringMapProto, len(names))
	for i, k := range names {
		out[i] = &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(env[k])}
	}
	return out, nil
}
