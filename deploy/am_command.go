package deploy

import (
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/appmaster"
)

// amCommand is `spindle am`, the ApplicationMaster in its YARN container
// (deploy/appmaster).
func amCommand() *cli.Command {
	return &cli.Command{Name: "am", Usage: "internal: run the ApplicationMaster in its YARN container", Hidden: true,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "session", Usage: "run a session: jobs come from its clients"},
			&cli.StringFlag{Name: "log-file", Usage: "log to this file (the container's am.stderr), rolling it over by spindle.log.maxBytes and spindle.log.maxFiles"}},
		Action: func(c *cli.Context) error {
			return appmaster.Run(c.Context, appmaster.Env{Session: c.Bool("session"), LogFile: c.String("log-file"), Verbose: c.Bool("verbose"),
				Stdout: c.App.Writer, Stderr: c.App.ErrWriter})
		}}
}
