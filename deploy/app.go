package deploy

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// NewApp builds the spindle command line.
func NewApp() *cli.App {
	app := &cli.App{
		Name:  "spindle",
		Usage: "run GPU work on Hadoop YARN, or locally with no cluster",
		// Errors are printed once, by main, with the exit status it chooses.
		// --version is a flag of ours, printed as `spindle version` prints.
		HideVersion:    true,
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   usageError,
		// --conf values carry commas (a GPU address list): a repeated flag
		// is the only separator.
		DisableSliceFlagSeparator: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Usage: "print spindle's version, as spindle version does"},
			&cli.BoolFlag{Name: "verbose", Usage: "log at debug level (over spindle.log.level)"},
		},
		Commands: []*cli.Command{
			submitCommand(),
			sessionCommand(),
			jobsCommand(),
			cancelCommand(),
			replayCommand(),
			statusCommand(),
			killCommand(),
			listCommand(),
			historyCommand(),
			simCommand(),
			executorCommand(),
			amCommand(),
			versionCommand(),
		},
		Before: func(c *cli.Context) error {
			if c.Bool("version") && c.Args().Present() {
				return fmt.Errorf("--version takes no command, got %q", c.Args().First())
			}
			return nil
		},
		// Reached only when the first argument is not a command.
		Action: func(c *cli.Context) error {
			switch {
			case c.Args().Present():
				return unknownCommand(c, c.Args().First())
			case c.Bool("version"):
				return printVersion(c)
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}
