package settings

import (
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// ExecutorLaunch is the application's part of the executors' launch
// contract that configuration decides; the AM adds its own address.
func ExecutorLaunch(conf *config.Config, appID string) (executor.Launch, error) {
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
	rolling, err := LogRolling(conf)
	if err != nil {
		return executor.Launch{}, err
	}
	taskLogs, err := TaskLogs(conf)
	if err != nil {
		return executor.Launch{}, err
	}
	rejoin, err := rejoinTimeout(conf)
	if err != nil {
		return executor.Launch{}, err
	}
	sampling, err := conf.Duration("spindle.executor.gpuSampleInterval")
	if err != nil {
		return executor.Launch{}, err
	}
	var accels []executor.Accelerator // their scripts: the amounts are each container's part
	for _, r := range conf.Resources() {
		if r.ExecutorAmount > 0 && r.DiscoveryScript != "" {
			accels = append(accels, executor.Accelerator{Name: r.Name, DiscoveryScript: r.DiscoveryScript})
		}
	}
	return executor.Launch{AppID: appID, GPUDiscoveryScript: script, TaskLogMaxBytes: logCap, SecretFrom: "credentials", LogLevel: level,
		LogMaxBytes: rolling.MaxBytes, LogMaxFiles: rolling.Keep, TaskLogs: taskLogs, RejoinTimeout: rejoin, GPUSampleInterval: sampling,
		Accels: accels}, nil
}

// rejoinTimeout is how long an executor outlives its ApplicationMaster
// for the next attempt to adopt it: spindle.yarn.executor.rejoinTimeout
// where YARN keeps containers across attempts, else none.
func rejoinTimeout(conf *config.Config) (time.Duration, error) {
	s := Read(conf)
	keep, d := s.Bool("spindle.yarn.am.keepContainers"), s.Duration("spindle.yarn.executor.rejoinTimeout")
	if !keep {
		d = 0
	}
	return d, s.Err()
}

// TaskLogs is spindle.session.taskLogs.*: how much of ended jobs'
// task files a session's executors keep.
func TaskLogs(conf *config.Config) (tasklog.Policy, error) {
	s := Read(conf)
	p := tasklog.Policy{MaxJobs: s.Int("spindle.session.taskLogs.maxJobs"), MaxBytes: s.Bytes("spindle.session.taskLogs.maxBytes")}
	return p, s.Err()
}
