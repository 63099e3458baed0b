package browser

import (
	"bytes"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// site is a little web site for the browser to visit: a page whose
// script rewrites its text and which links to a second page, recording
// the paths asked for.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	asked []string
}

func newSite(t *testing.T) *site {
	s := &site{}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<!DOCTYPE html><title>first</title>
<p id="says">the server wrote this</p>
<p id="later">not yet</p>
<p hidden>a hidden paragraph</p>
<script>
document.getElementById("says").textContent = "a script wrote this";
setTimeout(() => { document.getElementById("later").textContent = "a timer wrote this"; }, 500);
</script>
<p><a href="/second">to the second page</a></p>`))
	})
	mux.HandleFunc("/second", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<!DOCTYPE html><title>second</title><h1>the second page</h1>`))
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) wasAsked(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.asked {
		if p == path {
			return true
		}
	}
	return false
}

// The browser runs a page's JavaScript, reads the text as rendered, and
// follows a link by clicking it: the server sees the second page asked
// for, and the browser shows it.
func TestBrowserRunsScriptsAndFollowsLinks(t *testing.T) {
	s := newSite(t)
	b := Start(t)
	if code := b.Open(s.URL + "/"); code != 200 {
		t.Fatalf("the first page's status: %d", code)
	}
	text := b.Text()
	if !strings.Contains(text, "a script wrote this") || strings.Contains(text, "the server wrote this") {
		t.Errorf("the page's script did not run: the page says\n%s", text)
	}
	if strings.Contains(text, "hidden") || strings.Contains(text, "getElementById") {
		t.Errorf("the page's text holds what a user does not see:\n%s", text)
	}
	if !strings.Contains(b.HTML(), `<p id="says">a script wrote this</p>`) {
		t.Errorf("the DOM is not the script's:\n%s", b.HTML())
	}
	if text := b.WaitText("a timer wrote this", 10*time.Second); !strings.Contains(text, "a timer wrote this") {
		t.Errorf("WaitText returned before the page said so:\n%s", text)
	}
	if s.wasAsked("/second") {
		t.Fatal("the second page was asked for before the click")
	}
	if code := b.Click("to the second page"); code != 200 {
		t.Errorf("the second page's status: %d", code)
	}
	if !s.wasAsked("/second") || b.URL() != s.URL+"/second" || !strings.Contains(b.Text(), "the second page") {
		t.Errorf("the click did not lead to the second page: at %s, asked %v, showing\n%s", b.URL(), s.asked, b.Text())
	}
	if code := b.Open(s.URL + "/nowhere/"); code != http.StatusNotFound {
		t.Errorf("a missing page's status: %d", code)
	}
}

// A screenshot is a PNG of the window's width showing the page: not a
// blank image.
func TestBrowserScreenshotIsThePage(t *testing.T) {
	s := newSite(t)
	b := Start(t)
	b.Open(s.URL + "/")
	path := Artifact(t, "first.png")
	b.Screenshot(path)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the screenshot %s is no PNG: %v", path, err)
	}
	if w := img.Bounds().Dx(); w != windowWidth {
		t.Errorf("the screenshot is %d pixels wide, want the window's %d", w, windowWidth)
	}
	if inked(img) == 0 {
		t.Errorf("the screenshot %s is blank", path)
	}
}

// inked counts the pixels darker than the page's white background: the
// text.
func inked(img image.Image) int {
	n := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x8000 {
				n++
			}
		}
	}
	return n
}

// The RM's web proxy, on a secure cluster, shows a user who does not own
// the application a warning before its page; the browser goes on as a
// user would, by the warning's link, and the proxy's cookie lets the
// next visit straight through.
func TestBrowserPassesTheProxyWarning(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/proxy/application_1_0001/", func(w http.ResponseWriter, r *http.Request) {
		_, err := r.Cookie("checked_application_1_0001")
		if r.URL.Query().Get("proxyapproved") != "true" && err != nil {
			w.Write([]byte(`<html><body><h1>` + proxyWarning + `</h1><h3>click <a href="/proxy/application_1_0001/?proxyapproved=true">here</a>` +
				` to continue to an Application Master web interface owned by alice</h3></body></html>`))
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "checked_application_1_0001", Value: "true", Path: "/proxy/application_1_0001"})
		w.Write([]byte(`<html><body><pre>job tracked</pre></body></html>`))
	})
	proxy := httptest.NewServer(mux)
	defer proxy.Close()
	b := Start(t)
	b.Open(proxy.URL + "/proxy/application_1_0001/")
	if code := b.PassProxyWarning(); code != 200 {
		t.Fatalf("passing the proxy's warning: status %d, at %s", code, b.URL())
	}
	if text := b.Text(); !strings.Contains(text, "job tracked") {
		t.Fatalf("past the proxy's warning the page says:\n%s", text)
	}
	b.Open(proxy.URL + "/proxy/application_1_0001/")
	if code := b.PassProxyWarning(); code != 0 || !strings.Contains(b.Text(), "job tracked") {
		t.Errorf("a second visit was warned again (%d):\n%s", code, b.Text())
	}
}

// A browser ends with its test: once closed, no process of its is left,
// its crash handler included, and none of chromedp's goroutines.
func TestBrowserLeavesNoProcess(t *testing.T) {
	s := newSite(t)
	before := runtime.NumGoroutine()
	b := Start(t)
	b.Open(s.URL + "/")
	var commands []string
	for _, pid := range processesUsing(b.home) {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		commands = append(commands, string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	all := strings.Join(commands, "\n")
	for _, kind := range []string{"--type=renderer", "--type=zygote", "chrome_crashpad_handler"} {
		if !strings.Contains(all, kind) {
			t.Errorf("the search for the browser's processes misses its %s; it found\n%s", kind, all)
		}
	}
	b.Close()
	if left := processesUsing(b.home); len(left) > 0 {
		t.Errorf("processes %v outlived the browser", left)
	}
	if b.ctx.Err() == nil {
		t.Error("the browser's tab is still open after Close")
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("%d goroutines outlived the browser", runtime.NumGoroutine()-before)
			break
		}
	}
}

// The browser's processes see none of the test's environment: a
// credential in it stays with the test.
func TestBrowserKeepsTheTestsEnvironment(t *testing.T) {
	t.Setenv("SPINDLE_BROWSER_PROBE", "the test's own")
	b := Start(t)
	b.Open(newSite(t).URL + "/")
	pids := processesUsing(b.home)
	for _, pid := range pids {
		environ, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && bytes.Contains(environ, []byte("SPINDLE_BROWSER_PROBE")) {
			t.Errorf("chromium process %d has the test's environment", pid)
		}
	}
	if len(pids) == 0 {
		t.Fatal("no chromium process found")
	}
}
