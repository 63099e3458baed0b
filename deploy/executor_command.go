package deploy

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/executor"
)

func executorCommand() *cli.Command {
	return &cli.Command{
		Name:   "executor",
		Usage:  "internal: run an executor (started by a driver, not by hand)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			launch, err := executor.LaunchFromEnv(os.LookupEnv)
			if err != nil {
				return err
			}
			// The secret arrives on stdin (local mode) or in the container's
			// credentials (YARN), never in argv or the environment.
			secret, err := executor.ReadSecret(launch.SecretFrom, os.Stdin, os.LookupEnv)
			if err != nil {
				return fmt.Errorf("executor: %w", err)
			}
			return executor.Serve(c.Context, launch.Config(os.Environ(), secret))
		},
	}
}
