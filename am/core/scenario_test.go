package core_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core/coretest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt with the core's output")

// TestScenarios runs the AM's rules as scripted scenarios (coretest): an
// executor lost while its exit status is awaited, blame by exit status,
// retiring and idle release, surplus containers, exclusion after launch
// failures, an RM resync, fine mode.
func TestScenarios(t *testing.T) { coretest.Run(t, "testdata", *update) }

// A misspelled number, duration or key fails the script at its line (an
// input line's own), never read as a default.
func TestScenarioRefusesAMisspelledNumber(t *testing.T) {
	const config = "config containers initial=1\nprofile id=0 cores=1\n----\nok\n\n"
	for _, c := range []struct{ script, want string }{
		{config + "submit name=j tasks=1O\n----\nok\n", ":6: submit name=j tasks=1O: tasks=\"1O\": not a whole number"},
		{"config losswait=1O\n----\nok\n", ":1: config losswait=1O: losswait=\"1O\": not a duration"},
		{"config containers\nprofile id=0 cores=l\n----\nok\n", ":2: config containers: cores=\"l\": not a whole number"},
		{config + "allocated\ncontainer c1 node=n1:1 ask=l\n----\nok\n", ":7: allocated: ask=\"l\": not a whole number"},
		{config + "register id=c1 cors=1\n----\nok\n", ":6: register id=c1 cors=1: register cors=1: unknown key"},
		{config + "advance 1s sooner\n----\nok\n", ":6: advance 1s sooner: advance: want 1 bare words, have 2 (1s sooner)"},
	} {
		path := filepath.Join(t.TempDir(), "typo.txt")
		if err := os.WriteFile(path, []byte(c.script), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := coretest.RunFile(path)
		if err == nil || !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("script %q: error %v, want %s%s", c.script, err, path, c.want)
		}
	}
}
