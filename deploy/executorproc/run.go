package executorproc

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/internal/logroll"
)

// Env is what starts an executor besides its environment: where it
// logs without a log file, and whether at debug.
type Env struct {
	Verbose bool
	Stderr  io.Writer
	Stdin   io.Reader
}

// Run is the executor process: it serves its driver until told to stop
// or ctx ends.
func Run(ctx context.Context, env Env) error {
	launch, err := executor.LaunchFromEnv(os.LookupEnv)
	if err != nil {
		return err
	}
	// The secret arrives on stdin (local mode) or in the container's
	// credentials (YARN), never in argv or the environment.
	secret, err := executor.ReadSecret(launch.SecretFrom, env.Stdin, os.LookupEnv)
	if err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	cfg := launch.Config(os.Environ(), secret)
	log, logFile, err := openLog(env, launch)
	if err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	if logFile != nil {
		defer logFile.Close()
	}
	cfg.Log = log
	return executor.Serve(ctx, cfg)
}

// openLog logs at the launch's level, each line naming the
// application and the executor: to the launch's LogFile (executor.log
// locally, the container's executor.stderr on YARN), rolling over, which
// becomes the executor's standard error too; without one, to its
// standard error.
func openLog(env Env, launch executor.Launch) (logrus.FieldLogger, *logroll.File, error) {
	level := logrus.InfoLevel
	if launch.LogLevel != "" {
		level, _ = logrus.ParseLevel(launch.LogLevel) // LaunchFromEnv checked it
	}
	if env.Verbose {
		level = logrus.DebugLevel
	}
	log := proclog.Text(env.Stderr, level)
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
