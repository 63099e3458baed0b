package deploy

import (
	"errors"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/executorproc"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/exitstatus"
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

// ExitStatus is the process's exit status for a command's error: an
// executor whose ApplicationMaster went says so
// (exitstatus.DriverGone), for the AM not to blame its tasks; any other
// error is 1.
func ExitStatus(err error) int {
	if errors.Is(err, executor.ErrDriverGone) {
		return exitstatus.DriverGone
	}
	return 1
}
