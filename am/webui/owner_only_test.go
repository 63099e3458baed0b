package webui_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/webui"
)

const secretOutput = "another user's task output"

// ownersUI is a local UI as local mode serves it (the UI, /status.*,
// /metrics and task output), behind OwnerOnly, and the URL its owner's
// terminal was given.
func ownersUI(t *testing.T) (srv *httptest.Server, o webui.OwnerOnly, printed string) {
	t.Helper()
	files := t.TempDir()
	if err := os.Mkdir(filepath.Join(files, "exec-1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "exec-1", "job0-stage0-task0-attempt0.stdout"), []byte(secretOutput), 0o600); err != nil {
		t.Fatal(err)
	}
	s := history.NewStore(history.Limits{})
	now := time.Now()
	for _, e := range []history.Event{
		{Time: now, App: &history.AppStarted{ID: "local-1-ab", Master: "local[1]"}},
		{Time: now, ExecutorAdded: &history.ExecutorAdded{ID: "exec-1", Host: "localhost", Cores: 1}},
		{Time: now, JobSubmitted: &history.JobSubmitted{ID: 0, Name: "mine", Pool: "default", Stages: []history.StageInfo{{ID: 0, Name: "s", Tasks: 1, Cores: 1}}}},
	} {
		if err := s.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "spindle_tasks 1\n") })
	page := webui.TrackingHandler(webui.Tracking{UI: webui.Options{Store: s, TaskFiles: files}, Metrics: metrics,
		Status: func(context.Context) (core.Status, error) { return core.Status{App: "local-1-ab"}, nil }})
	srv = httptest.NewUnstartedServer(nil)
	o = webui.NewOwnerOnly(srv.Listener.Addr())
	srv.Config.Handler = o.Handler(page)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, o, o.URL(srv.Listener.Addr())
}

// ownerPaths are a page of each kind, the REST API, the status, the
// metrics, a task's output and a path that does not exist.
var ownerPaths = []string{"/", "/jobs/0", "/executors", "/api/v1/session", "/api/v1/jobs", "/status.json", "/status.txt", "/metrics",
	"/logs/exec-1/job0-stage0-task0-attempt0.stdout", "/no/such/page"}

// noRedirect is a client that shows each response as it comes.
func noRedirect(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func do(t *testing.T, c *http.Client, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// Without the token, or with a wrong one anywhere it may be brought,
// every path is refused, task output included; with it each is served.
func TestOwnerOnlyRefusesEveryPathWithoutTheToken(t *testing.T) {
	srv, o, _ := ownersUI(t)
	wrong := strings.Repeat("0", len(o.Token))
	tries := []struct {
		name   string
		query  string
		header []string
	}{
		{"no credential", "", nil},
		{"a wrong token in the query", "?token=" + wrong, nil},
		{"the token's first half in the query", "?token=" + o.Token[:len(o.Token)/2], nil},
		{"the token and more in the query", "?token=" + o.Token + "0", nil},
		{"an empty token", "?token=", []string{"Authorization", "Bearer "}},
		{"a wrong bearer token", "", []string{"Authorization", "Bearer " + wrong}},
		{"the token in another scheme", "", []string{"Authorization", "Basic " + o.Token}},
		{"a wrong cookie", "", []string{"Cookie", o.Cookie + "=" + wrong}},
		{"the token in another UI's cookie", "", []string{"Cookie", "spindle-ui-1=" + o.Token}},
	}
	c := noRedirect(nil)
	for _, try := range tries {
		for _, path := range ownerPaths {
			resp, body := do(t, c, srv.URL+path+try.query, append([]string{"Accept", "text/html"}, try.header...)...)
			if resp.StatusCode != http.StatusForbidden || strings.Contains(body, secretOutput) {
				t.Errorf("%s: GET %s: %s, want 403\n%s", try.name, path, resp.Status, body)
			}
			if resp.Header.Get("Set-Cookie") != "" {
				t.Errorf("%s: GET %s set a cookie", try.name, path)
			}
		}
	}
	for _, path := range ownerPaths[:len(ownerPaths)-1] {
		if resp, _ := do(t, c, srv.URL+path, "Authorization", "Bearer "+o.Token); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the token: %s, want 200", path, resp.Status)
		}
	}
}

// An OwnerOnly with no token (one left unset) lets nobody in, even with
// an empty token.
func TestOwnerOnlyWithoutATokenRefusesAll(t *testing.T) {
	served := false
	h := webui.OwnerOnly{}.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served = true }))
	for _, header := range []string{"", "Bearer ", "token"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/api/v1/jobs?token=", nil)
		req.Header.Set("Authorization", header)
		req.AddCookie(&http.Cookie{Name: "spindle-ui", Value: ""})
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || served {
			t.Errorf("Authorization %q and an empty token: %d, want 403", header, rec.Code)
		}
	}
}

// A browser opening the printed URL is given an HttpOnly, SameSite
// cookie and sent to the same URL without the token; from then on the
// cookie alone lets it in, on every path.
func TestOwnerOnlyExchangesTheTokenForACookie(t *testing.T) {
	srv, o, printed := ownersUI(t)
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := noRedirect(jar)
	resp, _ := do(t, c, printed, "Sec-Fetch-Mode", "navigate")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/" {
		t.Fatalf("the printed URL: %s to %q, want 302 to /", resp.Status, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies set: %v, want one", cookies)
	}
	k := cookies[0]
	if k.Name != o.Cookie || k.Value != o.Token || !k.HttpOnly || k.SameSite != http.SameSiteStrictMode || k.Path != "/" {
		t.Errorf("the cookie %+v: want %s, HttpOnly, SameSite=Strict, Path=/", k, o.Cookie)
	}
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	if o.Cookie != "spindle-ui-"+port {
		t.Errorf("the cookie is named %q: want it named by its port, %s", o.Cookie, port)
	}
	for _, path := range ownerPaths[:len(ownerPaths)-1] {
		resp, body := do(t, c, srv.URL+path, "Accept", "text/html")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the cookie alone: %s\n%s", path, resp.Status, body)
		}
	}
	// Other parameters stay; only the token goes.
	resp, _ = do(t, noRedirect(nil), srv.URL+"/stages/0?offset=5&token="+o.Token+"&length=2", "Accept", "text/html,application/xhtml+xml")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/stages/0?length=2&offset=5" {
		t.Errorf("a page with the token among its parameters: %s to %q, want 302 to /stages/0?length=2&offset=5", resp.Status, loc)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("the redirect from a URL with the token lets it go on as a referrer")
	}
}

// Followed from another site's link, the printed URL is answered with a
// page of the UI's own that moves on to the URL without the token: a
// redirect would go on as the other site's request, which a browser
// sends no SameSite=Strict cookie with.
func TestOwnerOnlySignsInFromAnotherSitesLink(t *testing.T) {
	srv, o, _ := ownersUI(t)
	resp, body := do(t, noRedirect(nil), srv.URL+"/jobs/0?token="+o.Token, "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != http.StatusOK || len(resp.Cookies()) != 1 || resp.Cookies()[0].Value != o.Token {
		t.Fatalf("%s, cookies %v: want 200 and the cookie", resp.Status, resp.Cookies())
	}
	if !strings.Contains(body, `<meta http-equiv="refresh" content="0;url=/jobs/0">`) || strings.Contains(body, o.Token) {
		t.Errorf("the page does not move on to /jobs/0 without the token:\n%s", body)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("the page from a URL with the token lets it go on as a referrer")
	}
}

// Scripts bring the token in an Authorization header (curl, Prometheus)
// or the query, and are answered at once: no redirect, no cookie.
func TestOwnerOnlyAnswersScriptsWithTheToken(t *testing.T) {
	srv, o, _ := ownersUI(t)
	c := noRedirect(nil)
	for _, h := range [][]string{{"Authorization", "Bearer " + o.Token}, {"Authorization", "token " + o.Token}, {"Authorization", "bearer " + o.Token}} {
		resp, body := do(t, c, srv.URL+"/logs/exec-1/job0-stage0-task0-attempt0.stdout", h...)
		if resp.StatusCode != http.StatusOK || body != secretOutput {
			t.Errorf("%s: %s %q, want the task's output", h[1][:6], resp.Status, body)
		}
	}
	resp, body := do(t, c, srv.URL+"/metrics?token="+o.Token)
	if resp.StatusCode != http.StatusOK || body != "spindle_tasks 1\n" || len(resp.Cookies()) != 0 {
		t.Errorf("a scrape with the token in the query: %s %q, cookies %v: want the metrics, no cookie", resp.Status, body, resp.Cookies())
	}
}

// A token in the query reaches nothing behind the guard, and a browser
// that already has its cookie is still sent on without it, so that the
// address bar loses it.
func TestOwnerOnlyKeepsTheQueryTokenToItself(t *testing.T) {
	o := webui.NewOwnerOnly(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4040})
	var seen []string
	h := o.Handler(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = append(seen, r.RequestURI, r.URL.String()) }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/stages/0/tasks?length=5&token="+o.Token, nil))
	if rec.Code != http.StatusOK || len(seen) == 0 || strings.Contains(strings.Join(seen, " "), o.Token) || !strings.Contains(seen[0], "length=5") {
		t.Errorf("a script's request with the token in the query: %d, the handler saw %q", rec.Code, seen)
	}
	rec = httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/executors?token="+o.Token, nil)
	req.Header.Set("Sec-Fetch-Mode", "navigate")
	req.AddCookie(&http.Cookie{Name: o.Cookie, Value: o.Token})
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/executors" {
		t.Errorf("a browser with its cookie opening the printed URL again: %d to %q, want 302 to /executors", rec.Code, rec.Header().Get("Location"))
	}
}

// Each UI has its own token, of 256 random bits.
func TestOwnerOnlyTokensAreFreshAndLong(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4040}
	a, b := webui.NewOwnerOnly(addr), webui.NewOwnerOnly(addr)
	if len(a.Token) != 64 || strings.Trim(a.Token, "0123456789abcdef") != "" || a.Token == b.Token {
		t.Errorf("tokens %q and %q: want two different 64-digit hex numbers", a.Token, b.Token)
	}
	if got := a.URL(addr); got != "http://127.0.0.1:4040/?token="+a.Token {
		t.Errorf("the owner's URL %q", got)
	}
}

// A token is compared in constant time: owner_only.go compares Token
// only through crypto/subtle, never with == or a strings function, which
// stop at the first byte that differs.
func TestOwnerOnlyComparesTheTokenInConstantTime(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "owner_only.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	constantTime := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name := callee(n)
			if name == "subtle.ConstantTimeCompare" {
				constantTime = true
			} else if mentionsToken(n.Args...) && comparing[name] {
				t.Errorf("owner_only.go compares the token with %s", name)
			}
		case *ast.BinaryExpr:
			// o.Token != "" and ConstantTimeCompare(...) == 1 say nothing of the token's bytes.
			allowed := isEmptyString(n.X) || isEmptyString(n.Y) || isConstantTime(n.X) || isConstantTime(n.Y)
			if (n.Op == token.EQL || n.Op == token.NEQ) && mentionsToken(n.X, n.Y) && !allowed {
				t.Errorf("owner_only.go compares the token with %s", n.Op)
			}
		}
		return true
	})
	if !constantTime {
		t.Error("owner_only.go does not call subtle.ConstantTimeCompare")
	}
}

// comparing are the functions that compare strings or bytes, stopping
// at the first that differs.
var comparing = map[string]bool{"strings.EqualFold": true, "strings.Compare": true, "strings.HasPrefix": true, "strings.HasSuffix": true,
	"strings.Contains": true, "strings.Index": true, "bytes.Equal": true, "bytes.Compare": true, "bytes.HasPrefix": true, "bytes.EqualFold": true}

func isConstantTime(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	return ok && callee(c) == "subtle.ConstantTimeCompare"
}

func callee(c *ast.CallExpr) string {
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := s.X.(*ast.Ident); ok {
			return x.Name + "." + s.Sel.Name
		}
	}
	return ""
}

// mentionsToken says whether any of es names a token: o.Token, or a
// variable or parameter called token.
func mentionsToken(es ...ast.Expr) bool {
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && strings.EqualFold(id.Name, "token") {
				found = true
			}
			return true
		})
	}
	return found
}

func isEmptyString(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Value == `""`
}
