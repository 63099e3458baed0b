package integration

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/browser"
)

// nobody runs a command as another user of the machine (uid and gid
// 65534, no groups), as issue 34 tried it; setpriv is util-linux's.
func nobody(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups"}, args...)...)
	cmd.Dir = "/" // one it may enter
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// curlAsNobody GETs url as another user, returning the status and body.
func curlAsNobody(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	args := []string{"curl", "-sS", "-w", "\n%{http_code}"}
	for _, h := range header {
		args = append(args, "-H", h)
	}
	out, err := nobody(t, append(args, url)...)
	i := strings.LastIndexByte(out, '\n')
	code, convErr := strconv.Atoi(out[i+1:])
	if err != nil || convErr != nil {
		t.Fatalf("curl %s as uid 65534: %v\n%s", url, err, out)
	}
	return code, out[:i]
}

// A local session's UI answers only its owner (docs/ui.md, "Who can
// see it"). Another uid gets 403 for every page, the REST API, the
// status, /metrics and a guessed task output path, with no token or a
// guessed one; it cannot read the token from the session's files
// (made readable to it up to Spindle's own directories), and no
// process, the task's included, has the token in its argv or
// environment. The owner's real browser gets in from the printed URL,
// loses the token from its address bar, and goes on with its cookie;
// and so does one that follows the URL from another site's link.
func TestLocalUIAnswersOnlyItsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running a command as another uid (setpriv) takes root")
	}
	for _, tool := range []string{"setpriv", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s: %v (setpriv is util-linux's)", tool, err)
		}
	}
	u := newSessionUser(t)
	state, tmp := u.dirs()
	// The test's directories are its own (0700): open them, so that what
	// keeps another user out is Spindle's own directories and files.
	for _, dir := range []string{state, tmp, filepath.Dir(state), filepath.Dir(tmp)} {
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(state, "canary"), []byte("canary-readable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sid, ui := u.startSessionUI("--master", "local[1]")
	printed := printedUI(t, ui)
	token := printed[strings.Index(printed, "token=")+len("token="):]
	spec := writeSpec(t, "name: private\nstages:\n  - {name: s, tasks: 1, command: \"echo owner-only-output; env; sleep 120\"}\n")
	u.start("submit", "--session", sid, spec)
	output := ui + "logs/exec-1/job0-stage0-task0-attempt0.stdout"
	waitFor(t, time.Minute, "the task's output through the owner's UI", func() bool {
		code, body := httpGet(t, http.DefaultClient, output)
		return code == 200 && strings.Contains(body, "owner-only-output")
	})

	othersRefused(t, ui, token)

	// The token is in no file but the session's record, which another
	// user cannot read, and in no process's argv or environment.
	dir, _ := u.sessionRecord(sid)
	record := filepath.Join(dir, "session.json")
	if out, err := nobody(t, "cat", record); err == nil {
		t.Errorf("another uid read the session's record:\n%s", out)
	}
	read, _ := nobody(t, "sh", "-c", `find "$@" -type f -readable -exec cat {} + 2>/dev/null; true`, "sh", state, tmp)
	if !strings.Contains(read, "canary-readable") || strings.Contains(read, token) {
		t.Errorf("another uid, reading every file it can under the user's directories: canary read %v, token read %v",
			strings.Contains(read, "canary-readable"), strings.Contains(read, token))
	}
	for _, root := range []string{state, tmp} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || path == record {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(token)) {
				t.Errorf("%s holds the UI's token", path)
			}
			return nil
		})
	}
	noProcessHolds(t, token, "owner-only-output")

	// The owner's browser, from the printed URL.
	b := browser.Start(t)
	if code := b.Open(printed); code != 200 || b.URL() != ui {
		t.Errorf("the owner's browser opening the printed URL: %d at %s, want 200 at %s", code, b.URL(), ui)
	}
	b.WaitText("private", 30*time.Second)
	for _, page := range []struct{ path, want string }{{"executors", "exec-1"}, {"jobs/0", "private"},
		{"logs/exec-1/job0-stage0-task0-attempt0.stdout", "owner-only-output"}} {
		if code := b.Open(ui + page.path); code != 200 || !strings.Contains(b.Text(), page.want) {
			t.Errorf("the owner's browser, by its cookie alone, at /%s: %d\n%s", page.path, code, b.Text())
		}
	}

	// From a link on another site (localhost is not 127.0.0.1's site):
	// a fresh browser gets in all the same.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><a href="%s">the UI</a>`, printed)
	}))
	defer site.Close()
	other := browser.Start(t)
	other.Open(strings.Replace(site.URL, "127.0.0.1", "localhost", 1))
	other.Click("the UI")
	other.WaitText("private", 30*time.Second)
	if other.URL() != ui {
		t.Errorf("a browser following the printed URL from another site is at %s, want %s", other.URL(), ui)
	}
}

// othersRefused checks that every path of the local UI at ui, pages,
// REST, status, metrics and task output, is refused (403) to another
// uid, with no token or a guessed one in the query, the Authorization
// header or the cookie; and served to the owner with the token.
func othersRefused(t *testing.T, ui, token string) {
	t.Helper()
	paths := []string{"", "jobs/0", "stages/0", "pools", "executors", "api/v1/session", "api/v1/jobs", "api/v1/jobs/0", "api/v1/stages/0/tasks",
		"api/v1/executors", "api/v1/timeline", "metrics", "status.json", "status.txt",
		"logs/exec-1/job0-stage0-task0-attempt0.stdout", "logs/exec-1/job0-stage0-task0-attempt0.stderr", "no/such/page"}
	guess := strings.Repeat("0", len(token))
	for _, path := range paths {
		for _, try := range [][]string{{ui + path}, {ui + path + "?token=" + guess}, {ui + path, "Authorization: Bearer " + guess},
			{ui + path, "Cookie: spindle-ui-" + strings.TrimSuffix(ui[strings.LastIndexByte(ui, ':')+1:], "/") + "=" + guess}} {
			code, body := curlAsNobody(t, try[0], try[1:]...)
			if code != 403 || strings.Contains(body, "owner-only-output") {
				t.Errorf("another uid, GET %v: %d, want 403\n%s", try, code, body)
			}
		}
		if code, _ := httpGet(t, http.DefaultClient, ui+path); code != 200 && path != "no/such/page" {
			t.Errorf("the owner, GET /%s: %d, want 200", path, code)
		}
	}
}

// dirs are the user's state and temporary directories.
func (u *sessionUser) dirs() (state, tmp string) {
	for _, kv := range u.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	return state, tmp
}

// noProcessHolds fails t if any process's command line or environment
// holds token; one's command line must hold seen (the task's), so that
// the processes looked at include the task.
func noProcessHolds(t *testing.T, token, seen string) {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range procs {
		for _, f := range []string{"cmdline", "environ"} {
			b, err := os.ReadFile(filepath.Join(p, f))
			if err != nil {
				continue // gone since
			}
			found = found || (f == "cmdline" && bytes.Contains(b, []byte(seen)))
			if bytes.Contains(b, []byte(token)) {
				cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
				t.Errorf("%s/%s holds the UI's token (the process: %.200q)", p, f, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
			}
		}
	}
	if !found {
		t.Errorf("no process's command line holds %q: the task was not among the processes looked at", seen)
	}
}
