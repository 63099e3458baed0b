package deploy

import (
	"fmt"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/internal/logroll"
)

func executorCommand() *cli.Command {
	return &cli.Command{
		Name:   "executor",
		Usage:  "internal: run an executor (started by a driver, not by hand)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			launch, err := executor.LaunchFromEnv(os.LookupEnv)
			if err != nil {
				return err
			}
			// The secret arrives on stdin (local mode) or in the container's
			// credentials (YARN), never in argv or the environment.
			secret, err := executor.ReadSecret(launch.SecretFrom, os.Stdin, os.LookupEnv)
			if err != nil {
				return fmt.Errorf("executor: %w", err)
			}
			cfg := launch.Config(os.Environ(), secret)
			log, logFile, err := executorLogger(c, launch)
			if err != nil {
				return fmt.Errorf("executor: %w", err)
			}
			if logFile != nil {
				defer logFile.Close()
			}
			cfg.Log = log
			return executor.Serve(c.Context, cfg)
		},
	}
}

// executorLogger logs at the launch's level, each line naming the
// application and the executor: to the launch's LogFile (executor.log
// locally, the container's executor.stderr on YARN), rolling over, which
// becomes the executor's standard error too; without one, to its
// standard error.
func executorLogger(c *cli.Context, launch executor.Launch) (logrus.FieldLogger, *logroll.File, error) {
	level := logrus.InfoLevel
	if launch.LogLevel != "" {
		level, _ = logrus.ParseLevel(launch.LogLevel) // LaunchFromEnv checked it
	}
	if c.Bool("verbose") {
		level = logrus.DebugLevel
	}
	log := proclog.Text(c.App.ErrWriter, level)
	var file *logroll.File
	if launch.LogFile != "" {
		var err error
		if file, err = proclog.Container(launch.LogFile, logroll.Options{MaxBytes: launch.LogMaxBytes, Keep: launch.LogMaxFiles}); err != nil {
			return nil, nil, err
		}
		log.SetOutput(file)
	}
	return log.WithFields(logrus.Fields{"app": launch.AppID, "executor": launch.ExecutorID}), file, nil
}
