package core_test

import (
	"flag"
	"testing"

	"github.com/spindle-yarn/spindle/am/core/coretest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt with the core's output")

// TestScenarios runs the AM's rules as scripted scenarios (coretest): an
// executor lost while its exit status is awaited, blame by exit status,
// retiring and idle release, surplus containers, exclusion after launch
// failures, an RM resync, fine mode.
func TestScenarios(t *testing.T) { coretest.Run(t, "testdata", *update) }
