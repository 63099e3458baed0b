package appmaster

import (
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// executorLaunch is the launch context of every executor container: the
// shared one the AM was given, its environment, and the command.
func executorLaunch(a appMaster, port int) *hadoopyarn.ContainerLaunchContextProto {
	launch := proto.Clone(a.Executors).(*hadoopyarn.ContainerLaunchContextProto)
	app := a.Launch
	app.DriverAddress = net.JoinHostPort(a.Host, strconv.Itoa(port))
	launch.Environment = append(launch.Environment, executorEnvironment(a.ExecutorEnv, app)...)
	// Task logs go to the container's log directory, where log
	// aggregation and `yarn logs` find them: the launch's last part, on
	// the command line, where the NodeManager expands <LOG_DIR>. The
	// executor's log is its stderr file, which it rolls over itself.
	logDir := strings.Join(executor.Launch{LogDir: "<LOG_DIR>", LogFile: "<LOG_DIR>/executor.stderr"}.Environ(), " ")
	launch.Command = []string{logDir + " ./spindle executor 1><LOG_DIR>/executor.stdout 2><LOG_DIR>/executor.stderr"}
	return launch
}

// executorEnvironment is what every executor container's launch context
// sets, sorted by name: extra (spindle.executorEnv, which the container,
// and so its tasks, inherit, over what the NodeManager gives), then the
// application's part of the launch contract. The NodeManager adds its own
// (CONTAINER_ID, NM_HOST, LOCAL_DIRS, LOG_DIRS, …) and its whitelist's.
func executorEnvironment(extra map[string]string, app executor.Launch) []*hadoopyarn.StringStringMapProto {
	env := maps.Clone(extra)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, app.Env())
	out := make([]*hadoopyarn.StringStringMapProto, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(env[k])})
	}
	return out
}
