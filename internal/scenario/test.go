package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDir runs every script in dir (*.txt) as a subtest, each through a
// fresh step from newStep; with update it rewrites their expected output
// instead of comparing.
func TestDir(t *testing.T, dir string, update bool, newStep func() Step) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { TestFile(t, f, update, newStep()) })
	}
}

// TestFile runs the script at path through step, failing t at the first
// block that fails and at each mismatch; with update it rewrites the
// script's expected output instead.
func TestFile(t *testing.T, path string, update bool, step Step) {
	t.Helper()
	res, err := RunFile(path, step)
	if err != nil {
		t.Fatal(err)
	}
	if update {
		if err := os.WriteFile(path, []byte(res.Rewritten), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, m := range res.Mismatches {
		t.Errorf("%s:%v", path, m)
	}
}
