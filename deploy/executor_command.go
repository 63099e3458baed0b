package deploy

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/executor"
)

func executorCommand() *cli.Command {
	return &cli.Command{
		Name:   "executor",
		Usage:  "internal: run an executor (started by a driver, not by hand)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			// The secret arrives on stdin (local mode) or in the container's
			// credentials (YARN), never in argv or the environment.
			from, _ := os.LookupEnv(executor.EnvSecretFrom)
			secret, err := executor.ReadSecret(from, os.Stdin, os.LookupEnv)
			if err != nil {
				return fmt.Errorf("executor: %w", err)
			}
			cfg, err := executor.ConfigFromEnvironment(os.Environ(), secret)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return executor.Serve(ctx, cfg)
		},
	}
}
