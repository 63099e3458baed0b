package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A session's record and secret read back as written, private to the
// user; an id that is not a session's, a missing record, and a secret
// others could read are refused, saying why.
func TestRecordsKeepTheSecretPrivate(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	secret := bytes.Repeat([]byte{7}, 32)
	dir, err := Create("local-1-abc", secret)
	if err != nil {
		t.Fatal(err)
	}
	r := Record{ID: "local-1-abc", Master: "local[2]", Socket: "/run/spindle/client.sock", PID: 42, Started: time.Unix(1, 0).UTC()}
	if err := Save(r); err != nil {
		t.Fatal(err)
	}
	got, s, err := Load("local-1-abc")
	if err != nil || got != r || !bytes.Equal(s, secret) {
		t.Fatalf("Load = %+v, %x, %v; want %+v and the secret", got, s, err, r)
	}
	for path, want := range map[string]os.FileMode{dir: os.ModeDir | 0o700, filepath.Join(dir, "secret"): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", path, fi.Mode(), err, want)
		}
	}
	if _, err := Create("local-1-abc", secret); err == nil {
		t.Error("a second Create of the same session succeeded")
	}

	os.Chmod(filepath.Join(dir, "secret"), 0o640)
	if _, _, err := Load("local-1-abc"); err == nil || !strings.Contains(err.Error(), "can be read by others") {
		t.Errorf("a group-readable secret: %v", err)
	}
	os.Chmod(filepath.Join(dir, "secret"), 0o600)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("short"), 0o600)
	if _, err := Secret("local-1-abc"); err == nil || !strings.Contains(err.Error(), "holds 5 bytes") {
		t.Errorf("a secret of 5 bytes: %v", err)
	}

	for _, id := range []string{"../x", "local-1", "application_1", "app_1_2", "local-1-xyz/.."} {
		if _, err := Dir(id); err == nil || !strings.Contains(err.Error(), "is not a session id") {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if _, _, err := Load("application_1_0002"); !errors.Is(err, ErrNoRecord) {
		t.Errorf("an unknown session: %v", err)
	}
	if err := Remove("local-1-abc"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load("local-1-abc"); !errors.Is(err, ErrNoRecord) {
		t.Errorf("a removed session: %v", err)
	}
}

// A secret file that is private (0600) but another user's is refused:
// whoever owns it could have written, or still read, the secret.
func TestSecretOfAnotherUserIsRefused(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir, err := Create("local-1-abc", bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Secret("local-1-abc"); err != nil {
		t.Fatalf("the user's own secret: %v", err)
	}
	if os.Geteuid() == 0 {
		// For real: the file given to nobody, mode 0600 kept.
		if err := os.Chown(filepath.Join(dir, "secret"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Secret("local-1-abc"); err == nil || !strings.Contains(err.Error(), "does not belong to this user") {
			t.Errorf("a 0600 secret of uid 65534, read as root: %v", err)
		}
		os.Chown(filepath.Join(dir, "secret"), 0, 0)
	}
	// As another user reading this one's file.
	defer func(old func() int) { currentUID = old }(currentUID)
	currentUID = func() int { return os.Geteuid() + 1 }
	if _, err := Secret("local-1-abc"); err == nil || !strings.Contains(err.Error(), "does not belong to this user") {
		t.Errorf("a 0600 secret of another uid: %v", err)
	}
}
