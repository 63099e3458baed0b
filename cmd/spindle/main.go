// Command spindle submits GPU jobs to Hadoop YARN or runs them locally; the
// same binary runs the ApplicationMaster and the executors inside YARN
// containers. The commands live in package deploy; this file only runs them.
package main

import (
	"fmt"
	"os"

	"github.com/spindle-yarn/spindle/deploy"
	"github.com/spindle-yarn/spindle/executor/contain"
)

func main() {
	// Tasks and discovery scripts run under a guard started from this
	// binary: in such a process this runs the guard and never returns.
	contain.MaybeGuard()
	if err := deploy.NewApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "spindle:", err)
		os.Exit(1)
	}
}
