package integration

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// The project's habits are Makefile targets; `make help` is how a newcomer
// finds them, so each must be listed with what it does.
func TestMakeHelpListsEveryHabit(t *testing.T) {
	root := filepath.Dir(filepath.Dir(testcluster.Script()))
	out, err := exec.Command("make", "-s", "-C", root, "help").CombinedOutput()
	if err != nil {
		t.Fatalf("make help: %v\n%s", err, out)
	}
	for _, target := range []string{"build", "test", "test-unit", "test-integration", "test-clusters", "test-hadoop-versions", "nemesis", "bench",
		"bench-compare", "demo", "proto", "verify-proto", "lint", "mutate", "minicluster", "help"} {
		line := regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(target) + `\s+\S.*$`)
		if !line.Match(out) {
			t.Errorf("make help does not describe %q:\n%s", target, out)
		}
	}
}
