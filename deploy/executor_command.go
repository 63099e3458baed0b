package deploy

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/executor"
)

// maxSecret bounds what is read from stdin for the application secret.
const maxSecret = 1024

func executorCommand() *cli.Command {
	return &cli.Command{
		Name:   "executor",
		Usage:  "internal: run an executor (started by a driver, not by hand)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			// The secret arrives on stdin, never in argv or the environment.
			secret, err := io.ReadAll(io.LimitReader(os.Stdin, maxSecret))
			if err != nil {
				return fmt.Errorf("executor: reading the application secret: %w", err)
			}
			cfg, err := executor.ConfigFromEnvironment(os.LookupEnv, secret)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return executor.Serve(ctx, cfg)
		},
	}
}
