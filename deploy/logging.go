package deploy

import (
	"io"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/internal/logroll"
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

// rollingLog opens a local session's driver.log at path, private to the
// user: it rolls over at spindle.log.maxBytes, keeping
// spindle.log.maxFiles old files.
func rollingLog(conf *config.Config, path string) (*logroll.File, error) {
	opts, err := settings.LogRolling(conf)
	if err != nil {
		return nil, err
	}
	return logroll.Open(path, opts)
}

// containerLog opens a container process's log at path (the AM's
// am.stderr, an executor's log) rolling over by opts, and makes it the
// process's standard error, so that a crash lands after its last line.
// A new file is 0644 before the umask, as the NodeManager's own
// redirection creates it: its log aggregation reads the file.
func containerLog(path string, opts logroll.Options) (*logroll.File, error) {
	opts.Perm = 0o644
	file, err := logroll.Open(path, opts)
	if err != nil {
		return nil, err
	}
	if err := file.Stderr(); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}
