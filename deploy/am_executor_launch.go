package deploy

import (
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
)

// executorLaunch is the application's part of the executors' launch
// contract that configuration decides; the AM adds its own address.
func executorLaunch(conf *config.Config, appID string) (executor.Launch, error) {
	script, err := conf.String("spindle.executor.resource.gpu.discoveryScript")
	if err != nil {
		return executor.Launch{}, err
	}
	logCap, err := conf.Bytes("spindle.task.log.maxBytes")
	if err != nil {
		return executor.Launch{}, err
	}
	level, err := conf.Enum("spindle.log.level")
	if err != nil {
		return executor.Launch{}, err
	}
	rolling, err := logRolling(conf)
	if err != nil {
		return executor.Launch{}, err
	}
	return executor.Launch{AppID: appID, GPUDiscoveryScript: script, TaskLogMaxBytes: logCap, SecretFrom: "credentials", LogLevel: level,
		LogMaxBytes: rolling.MaxBytes, LogMaxFiles: rolling.Keep}, nil
}
