package deploy

import (
	"fmt"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/executor"
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
			cfg.Log = executorLogger(c, launch)
			return executor.Serve(c.Context, cfg)
		},
	}
}

// executorLogger logs to the executor's stderr (executor.log locally, the
// container's executor.stderr on YARN) at the launch's level, each line
// naming the application and the executor.
func executorLogger(c *cli.Context, launch executor.Launch) logrus.FieldLogger {
	level := logrus.InfoLevel
	if launch.LogLevel != "" {
		level, _ = logrus.ParseLevel(launch.LogLevel) // LaunchFromEnv checked it
	}
	return newLogger(c, level).WithFields(logrus.Fields{"app": launch.AppID, "executor": launch.ExecutorID})
}
