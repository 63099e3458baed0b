package durable

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// synced records what is synced, in order, while the test runs.
func synced(t *testing.T) *[]string {
	var names []string
	real := fsync
	fsync = func(f *os.File) error {
		names = append(names, f.Name())
		return real(f)
	}
	t.Cleanup(func() { fsync = real })
	return &names
}

// A file is synced before it is named, and its directory after: both
// the data and the name survive the machine.
func TestAFileIsSyncedThenItsNameInItsDirectory(t *testing.T) {
	names := synced(t)
	dir := t.TempDir()
	tmp, final := filepath.Join(dir, ".seg.tmp"), filepath.Join(dir, "seg")
	if err := WriteFile(tmp, strings.NewReader("data\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Rename(tmp, final); err != nil {
		t.Fatal(err)
	}
	if want := []string{tmp, dir}; !slices.Equal(*names, want) {
		t.Errorf("synced %q; want the file, then its directory %q", *names, want)
	}
	if b, err := os.ReadFile(final); err != nil || string(b) != "data\n" {
		t.Errorf("read back %q, %v", b, err)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary name is still there: %v", err)
	}
}

// WriteFile makes a new file only, and a failed sync leaves none.
func TestWriteFileMakesANewFileOrNone(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, strings.NewReader("new"), 0o600); !errors.Is(err, os.ErrExist) {
		t.Errorf("over an existing file: %v; want it refused", err)
	}
	real := fsync
	fsync = func(*os.File) error { return errors.New("the disk is away") }
	t.Cleanup(func() { fsync = real })
	other := filepath.Join(dir, "g")
	if err := WriteFile(other, strings.NewReader("data"), 0o600); err == nil || !strings.Contains(err.Error(), "the disk is away") {
		t.Errorf("a failed sync: %v", err)
	}
	if _, err := os.Stat(other); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file whose sync failed is left: %v", err)
	}
}
