package deploy

import (
	"io"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// logger is where a command logs: stderr, with timestamps and fields, at
// spindle.log.level, or debug with --verbose. quiet commands (those whose
// own output is on the terminal: submit's progress, local mode's bar) log
// only warnings unless the level was set.
func logger(c *cli.Context, conf *config.Config, quiet bool) (*logrus.Logger, error) {
	name, err := conf.Enum("spindle.log.level")
	if err != nil {
		return nil, err
	}
	level, err := logrus.ParseLevel(name)
	if err != nil {
		return nil, err
	}
	if quiet && !conf.IsSet("spindle.log.level") {
		level = logrus.WarnLevel
	}
	return newLogger(c, level), nil
}

// newLogger logs to the command's stderr at level, or debug with --verbose.
func newLogger(c *cli.Context, level logrus.Level) *logrus.Logger {
	if c.Bool("verbose") {
		level = logrus.DebugLevel
	}
	return textLogger(c.App.ErrWriter, level)
}

// textLogger is Spindle's log format: logfmt lines with millisecond
// timestamps, no colours (they end up in files: container logs,
// executor.log).
func textLogger(w io.Writer, level logrus.Level) *logrus.Logger {
	log := logrus.New()
	log.SetOutput(w)
	log.SetLevel(level)
	log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, TimestampFormat: "2006-01-02T15:04:05.000Z07:00", DisableColors: true})
	return log
}
