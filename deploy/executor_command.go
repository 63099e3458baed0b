package deploy

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/executorproc"
)

// executorCommand is `spindle executor`, which a driver starts
// (deploy/executorproc).
func executorCommand() *cli.Command {
	return &cli.Command{
		Name:   "executor",
		Usage:  "internal: run an executor (started by a driver, not by hand)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			return executorproc.Run(c.Context, executorproc.Env{Verbose: c.Bool("verbose"), Stderr: c.App.ErrWriter, Stdin: os.Stdin})
		},
	}
}
