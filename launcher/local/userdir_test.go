package local

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestUserDirIsPrivate(t *testing.T) {
	base := t.TempDir()
	dir, err := UserDir(base)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(base, "spindle-"+strconv.Itoa(os.Geteuid())); dir != want {
		t.Errorf("UserDir = %s, want %s", dir, want)
	}
	if fi, err := os.Lstat(dir); err != nil || fi.Mode().Perm() != 0o700 || !fi.IsDir() {
		t.Fatalf("%s: %v, %v; want a directory of mode 0700", dir, fi.Mode(), err)
	}
	// Again: the same directory; one of ours made too open is narrowed.
	os.Chmod(dir, 0o777)
	if again, err := UserDir(base); err != nil || again != dir {
		t.Fatalf("second UserDir = %s, %v", again, err)
	}
	if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v after UserDir, want 0700", fi.Mode().Perm())
	}
}

func TestUserDirRefusesWhatItCannotTrust(t *testing.T) {
	name := "spindle-" + strconv.Itoa(os.Geteuid())
	symlinked := t.TempDir()
	os.Symlink(t.TempDir(), filepath.Join(symlinked, name))
	file := t.TempDir()
	os.WriteFile(filepath.Join(file, name), nil, 0o600)
	for base, want := range map[string]string{symlinked: "is a symbolic link", file: "is not a directory"} {
		if _, err := UserDir(base); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), name) {
			t.Errorf("UserDir over %q: %v", want, err)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("only root can make a directory that belongs to another user")
	}
	foreign := t.TempDir()
	os.Mkdir(filepath.Join(foreign, name), 0o700)
	os.Chown(filepath.Join(foreign, name), 65534, 65534)
	if _, err := UserDir(foreign); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("UserDir over another user's directory: %v", err)
	}
}

func TestPruneRemovesOldStoppedApplicationsOnly(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-8 * 24 * time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Join(p, "exec-1"), 0o700)
		os.WriteFile(filepath.Join(p, "exec-1", "job0-stage0-task0-attempt0.stdout"), []byte("x"), 0o644)
		os.Chtimes(p, mtime, mtime)
		return p
	}
	stale := mk("local-1-aaaaaa", old)
	fresh := mk("local-2-bbbbbb", now.Add(-time.Hour))
	other := mk("notes", old)
	running, err := NewAppDir(dir, "local-3-cccccc")
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	os.Chtimes(running.Path, old, old) // a long run: old, but held

	removed, err := Prune(dir, 7*24*time.Hour, now)
	if err != nil || len(removed) != 1 || removed[0] != stale {
		t.Fatalf("Prune removed %q, %v; want only %s", removed, err, stale)
	}
	for _, p := range []string{fresh, other, running.Path} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	// Exactly at the age it goes; a moment younger it stays.
	at := mk("local-4-dddddd", now.Add(-7*24*time.Hour))
	younger := mk("local-5-eeeeee", now.Add(-7*24*time.Hour+time.Second))
	if removed, _ := Prune(dir, 7*24*time.Hour, now); len(removed) != 1 || removed[0] != at {
		t.Errorf("at the TTL Prune removed %q; want %s, not %s", removed, at, younger)
	}
	// Once its application ends, the directory is its age from then.
	running.Close()
	if removed, _ := Prune(dir, 7*24*time.Hour, now); len(removed) != 0 {
		t.Errorf("a just-ended application's directory was removed: %q", removed)
	}
	if removed, _ := Prune(dir, 0, now.Add(100*24*time.Hour)); removed != nil {
		t.Errorf("ttl 0 removed %q", removed)
	}
}
