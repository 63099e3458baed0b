package localmode

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/executorproc"
	"github.com/spindle-yarn/spindle/executor/contain"
)

// TestMain lets a test run a local job for real: Run starts this test
// binary (os.Executable) as its executors, `executor` their command,
// and their tasks under guards started from it.
func TestMain(m *testing.M) {
	contain.MaybeGuard()
	if len(os.Args) > 1 && os.Args[1] == "executor" {
		if err := executorproc.Run(context.Background(), executorproc.Env{Stderr: os.Stderr, Stdin: os.Stdin}); err != nil {
			fmt.Fprintln(os.Stderr, "executor:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
