package deploy

import (
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// logger is where a command logs: stderr, with timestamps and fields, at
// spindle.log.level, or debug with --verbose. quiet commands (local mode,
// whose progress bar is on the terminal) log only warnings unless the
// level was set.
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
	if c.Bool("verbose") {
		level = logrus.DebugLevel
	}
	log := logrus.New()
	log.SetOutput(c.App.ErrWriter)
	log.SetLevel(level)
	log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, TimestampFormat: "2006-01-02T15:04:05.000Z07:00", DisableColors: true})
	return log, nil
}
