package deploy

import (
	"fmt"
	"os"
	"testing"
)

// TestMain stops this test binary when a submit under test reaches local
// mode and starts it as an executor (os.Executable is the test binary):
// run as a test binary again, each would submit and start more.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "executor" {
		fmt.Fprintln(os.Stderr, "deploy tests: started as an executor: a submit under test reached local mode")
		os.Exit(2)
	}
	os.Exit(m.Run())
}
