package deploy

import (
	"io"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
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

// rollingLog opens a long-lived process's log at path (a local session's
// driver.log, the ApplicationMaster's am.stderr): it rolls over at
// spindle.log.maxBytes, keeping spindle.log.maxFiles old files. perm is
// a new file's permissions, before the umask.
func rollingLog(conf *config.Config, path string, perm os.FileMode) (*logroll.File, error) {
	opts, err := logRolling(conf)
	if err != nil {
		return nil, err
	}
	opts.Perm = perm
	return logroll.Open(path, opts)
}

// logRolling is spindle.log.maxBytes and spindle.log.maxFiles.
func logRolling(conf *config.Config) (logroll.Options, error) {
	s := &settings{c: conf}
	o := logroll.Options{MaxBytes: s.bytes("spindle.log.maxBytes"), Keep: s.int("spindle.log.maxFiles")}
	return o, s.err
}
