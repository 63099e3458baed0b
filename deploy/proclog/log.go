package proclog

import (
	"io"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/internal/logroll"
)

// New logs to w at spindle.log.level, or debug when verbose. quiet
// processes (those whose own output is on the terminal: submit's progress,
// local mode's bar) log only warnings unless the level was set.
func New(w io.Writer, conf *config.Config, quiet, verbose bool) (*logrus.Logger, error) {
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
	if verbose {
		level = logrus.DebugLevel
	}
	return Text(w, level), nil
}

// Text is Spindle's log format: logfmt lines with millisecond
// timestamps, no colours (they end up in files: container logs,
// executor.log).
func Text(w io.Writer, level logrus.Level) *logrus.Logger {
	log := logrus.New()
	log.SetOutput(w)
	log.SetLevel(level)
	log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, TimestampFormat: "2006-01-02T15:04:05.000Z07:00", DisableColors: true})
	return log
}

// Rolling opens a local session's driver.log at path, private to the
// user: it rolls over at spindle.log.maxBytes, keeping
// spindle.log.maxFiles old files.
func Rolling(conf *config.Config, path string) (*logroll.File, error) {
	opts, err := settings.LogRolling(conf)
	if err != nil {
		return nil, err
	}
	return logroll.Open(path, opts)
}

// Container opens a container process's log at path (the AM's
// am.stderr, an executor's log) rolling over by opts, and makes it the
// process's standard error, so that a crash lands after its last line.
// A new file is 0644 before the umask, as the NodeManager's own
// redirection creates it: its log aggregation reads the file.
func Container(path string, opts logroll.Options) (*logroll.File, error) {
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
