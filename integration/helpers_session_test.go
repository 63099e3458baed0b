package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Helpers: sessions, as one user of them sees them: that user's state
// and temporary directories, and the spindle commands run in them.

// sessionUser is one user's view of sessions: a state directory and a
// temporary directory of their own.
type sessionUser struct {
	t   *testing.T
	env []string
}

// newSessionUser is a user whose state and temporary directories are
// t's own, with extra in their environment.
func newSessionUser(t *testing.T, extra ...string) *sessionUser {
	return &sessionUser{t, append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "TMPDIR="+t.TempDir()), extra...)}
}

// run runs spindle to its end.
func (u *sessionUser) run(args ...string) (string, error) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return runSpindle(ctx, u.t, u.env, args...)
}

// start starts spindle, collecting its output.
func (u *sessionUser) start(args ...string) (*exec.Cmd, *syncBuffer) {
	u.t.Helper()
	cmd, buf := startSpindle(u.t, u.env, args...)
	u.t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, buf
}

// startSession runs `spindle session start` with args and returns the
// session's id, stopping it when the test ends.
func (u *sessionUser) startSession(args ...string) string {
	u.t.Helper()
	id, _ := u.startSessionUI(args...)
	return id
}

// startSessionUI starts a session, returning its id and its web UI's
// URL, the UI= line it printed just before (a local UI's without its
// token: ownUI).
func (u *sessionUser) startSessionUI(args ...string) (id, ui string) {
	u.t.Helper()
	out, err := u.run(append([]string{"session", "start"}, args...)...)
	m := sessionLine.FindStringSubmatch(out)
	if err != nil || m == nil || !strings.HasSuffix(strings.TrimSpace(out), m[0]) {
		u.t.Fatalf("session start: %v; want SESSION=<id> as the last line\n%s", err, out)
	}
	u.t.Cleanup(func() { u.run("session", "stop", m[1]) })
	if ui := uiLine.FindStringSubmatch(out); ui != nil {
		return m[1], ownUI(u.t, ui[1])
	}
	return m[1], ""
}

// sessionRecord reads a session's record in the user's state directory.
func (u *sessionUser) sessionRecord(id string) (dir string, rec map[string]any) {
	u.t.Helper()
	for _, kv := range u.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			dir = filepath.Join(v, "spindle", "sessions", id)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "session.json"))
	if err != nil {
		u.t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		u.t.Fatal(err)
	}
	return dir, rec
}

// sessionLine is the SESSION= line, the last, session start prints.
var sessionLine = regexp.MustCompile(`(?m)^SESSION=(\S+)$`)

// uiLine is the UI= line session start prints just before SESSION=.
var uiLine = regexp.MustCompile(`(?m)^UI=(\S+)\nSESSION=\S+$`)
