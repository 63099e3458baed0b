package deploy

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// NewApp builds the spindle command line.
func NewApp() *cli.App {
	return &cli.App{
		Name:  "spindle",
		Usage: "run GPU work on Hadoop YARN, or locally with no cluster",
		// Errors are printed once, by main, with the exit status it chooses.
		HideVersion:    true,
		ExitErrHandler: func(*cli.Context, error) {},
		// --conf values carry commas (a GPU address list): a repeated flag
		// is the only separator.
		DisableSliceFlagSeparator: true,
		Commands: []*cli.Command{
			submitCommand(),
			statusCommand(),
			killCommand(),
			listCommand(),
			simCommand(),
			executorCommand(),
			amCommand(),
			versionCommand(),
		},
		// Reached only when the first argument is not a command.
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("unknown command %q; 'spindle help' lists the commands", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}
