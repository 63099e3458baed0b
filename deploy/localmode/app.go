package localmode

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/launcher/local"
)

// NewAppID names a local application: local-<unix time>-<6 hex>.
func NewAppID() string {
	suffix := make([]byte, 3)
	rand.Read(suffix)
	return fmt.Sprintf("local-%d-%s", time.Now().Unix(), hex.EncodeToString(suffix))
}

// Options are what a local application is besides its settings.
type Options struct {
	AppID     string
	Executors int
	// Session: its jobs come from clients, within the session's limits.
	Session bool
	// Verbose has the executors log at debug.
	Verbose bool
}

// App settles local mode's driver from conf: the core's configuration,
// the executors' GPUs, the application's directory (which the caller
// closes) and the executors' secret and logs. The caller adds the job, or
// the session's clients.
func App(conf *config.Config, log *logrus.Logger, o Options) (Program, *local.AppDir, error) {
	appID := o.AppID
	cfg, _, err := settings.Core(conf, settings.CoreFor{AppID: appID, Session: o.Session})
	if err != nil {
		return Program{}, nil, err
	}
	s := settings.Read(conf)
	workerGPUs, err := executor.WorkerGPUs(executor.WorkerSources{
		ResourcesFile:   s.String("spindle.worker.resourcesFile"),
		DiscoveryScript: s.String("spindle.worker.resource.gpu.discoveryScript"),
		Addresses:       s.String("spindle.worker.resource.gpu.addresses"),
	})
	logCap := s.Bytes("spindle.task.log.maxBytes")
	rolling, rollErr := settings.LogRolling(conf)
	taskLogs, taskLogsErr := settings.TaskLogs(conf)
	// Executors log to their executor.log, not the terminal: at the level
	// set, not the terminal's quiet one.
	execLevel := s.Enum("spindle.log.level")
	sampling := s.Duration("spindle.executor.gpuSampleInterval")
	if err := errors.Join(s.Err(), err, rollErr, taskLogsErr); err != nil {
		return Program{}, nil, err
	}
	if o.Verbose {
		execLevel = "debug"
	}
	cfg.FixedExecutors = o.Executors
	split, err := executor.SplitDisjoint(workerGPUs, o.Executors, cfg.Profiles[0].GPUs)
	if err != nil {
		return Program{}, nil, err
	}
	accels, err := workerAccelerators(conf, o.Executors)
	if err != nil {
		return Program{}, nil, err
	}
	dir, err := appDir(log, conf, appID)
	if err != nil {
		return Program{}, nil, err
	}
	logs, err := eventLogDir(conf)
	if err != nil {
		dir.Close()
		return Program{}, nil, err
	}
	h, ui, err := localHistory(conf, appID, o.Session)
	if err != nil {
		dir.Close()
		return Program{}, nil, err
	}
	var owner webui.OwnerOnly
	if ui != nil {
		owner = webui.NewOwnerOnly(ui.Addr())
	}
	return Program{Core: cfg, GPUs: split, Accels: accels, Log: log.WithField("app", appID), History: h, UI: ui, UIOwner: owner, EventLogs: logs,
		Launcher: local.Config{Secret: wire.NewSecret(), LogDir: dir.Path, ExecutorEnv: conf.Prefixed(config.ExecutorEnvPrefix),
			TaskLogMaxBytes: logCap, LogLevel: execLevel, LogMaxBytes: rolling.MaxBytes, LogMaxFiles: rolling.Keep, TaskLogs: taskLogs,
			GPUSampleInterval: sampling}}, dir, nil
}
