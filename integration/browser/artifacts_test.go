package browser

import (
	"path/filepath"
	"strings"
	"testing"
)

// Artifacts go where SPINDLE_TEST_ARTIFACTS says, else under
// integration/.artifacts/, in a directory named after the test that a
// subtest's name cannot escape.
func TestArtifactPaths(t *testing.T) {
	t.Run("by default", func(t *testing.T) {
		t.Setenv(ArtifactsEnv, "")
		got := Artifact(t, "page.png")
		want := filepath.Join("integration", ".artifacts", "TestArtifactPaths_by_default", "page.png")
		if !strings.HasSuffix(got, want) || !filepath.IsAbs(got) {
			t.Errorf("Artifact = %s, want the repository's %s", got, want)
		}
	})
	t.Run("../where/asked", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv(ArtifactsEnv, dir)
		if got, want := Artifact(t, "page.png"), filepath.Join(dir, "TestArtifactPaths_.._where_asked", "page.png"); got != want {
			t.Errorf("Artifact = %s, want %s", got, want)
		}
	})
}
