// Command spindle submits GPU jobs to Hadoop YARN or runs them locally; the
// same binary runs the ApplicationMaster and the executors inside YARN
// containers. The commands live in package deploy; this file only runs them.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spindle-yarn/spindle/deploy"
	"github.com/spindle-yarn/spindle/executor/contain"
	"github.com/spindle-yarn/spindle/internal/fds"
)

func main() {
	// Descriptors the caller left open reach no process this one starts.
	fds.CloseOnExecInherited()
	// Tasks and discovery scripts run under a guard started from this
	// binary: in such a process this runs the guard and never returns.
	contain.MaybeGuard()
	// SIGINT and SIGTERM cancel the context every command runs with.
	ctx, stop := deploy.InterruptContext(context.Background())
	err := deploy.NewApp().RunContext(ctx, os.Args)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spindle:", err)
		os.Exit(deploy.ExitStatus(err))
	}
}
