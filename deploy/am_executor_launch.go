package deploy

import (
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/tasklog"
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
	taskLogs, err := taskLogsPolicy(conf)
	if err != nil {
		return executor.Launch{}, err
	}
	return executor.Launch{AppID: appID, GPUDiscoveryScript: script, TaskLogMaxBytes: logCap, SecretFrom: "credentials", LogLevel: level,
		LogMaxBytes: rolling.MaxBytes, LogMaxFiles: rolling.Keep, TaskLogs: taskLogs}, nil
}

// taskLogsPolicy is spindle.session.taskLogs.*: how much of ended jobs'
// task files a session's executors keep.
func taskLogsPolicy(conf *config.Config) (tasklog.Policy, error) {
	s := &settings{c: conf}
	p := tasklog.Policy{MaxJobs: s.int("spindle.session.taskLogs.maxJobs"), MaxBytes: s.bytes("spindle.session.taskLogs.maxBytes")}
	return p, s.err
}
