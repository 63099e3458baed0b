package browser

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// ArtifactsEnv names the directory where tests leave what is to be
// looked at after they ran (screenshots); by default
// integration/.artifacts/ in the repository, which git ignores.
const ArtifactsEnv = "SPINDLE_TEST_ARTIFACTS"

// unsafeInName is what a test's name may hold (subtests' slashes,
// spaces) that a file's name should not.
var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Artifact is the path of the artifact name of test t: a file in a
// directory of t's own under the artifacts directory, so that tests
// never write over each other's (a test's next run replaces its own).
func Artifact(t testing.TB, name string) string {
	dir := os.Getenv(ArtifactsEnv)
	if dir == "" {
		dir = filepath.Join(filepath.Dir(testcluster.Script()), ".artifacts")
	}
	return filepath.Join(dir, unsafeInName.ReplaceAllString(t.Name(), "_"), name)
}
