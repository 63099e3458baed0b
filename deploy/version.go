package deploy

import (
	"fmt"
	"runtime"

	"github.com/urfave/cli/v2"
)

// version is stamped at build time by the Makefile
// (-ldflags "-X github.com/spindle-yarn/spindle/deploy.version=..."); a plain
// `go build` reports "dev".
var version = "dev"

// Version reports the version of this build of spindle.
func Version() string { return version }

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:   "version",
		Usage:  "print spindle's version",
		Action: printVersion,
	}
}

// printVersion is `spindle version` and `spindle --version`.
func printVersion(c *cli.Context) error {
	_, err := fmt.Fprintf(c.App.Writer, "spindle %s (%s %s/%s)\n",
		Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
