package deploy

import (
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/proclog"
)

// logger is where a command logs: its stderr, at spindle.log.level, or
// debug with --verbose (proclog.New says what quiet is).
func logger(c *cli.Context, conf *config.Config, quiet bool) (*logrus.Logger, error) {
	return proclog.New(c.App.ErrWriter, conf, quiet, c.Bool("verbose"))
}
