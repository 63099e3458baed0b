package integration

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Helpers: Spindle's web UI and REST API, as the tests read them.

// uiJob is a job as the REST API gives it (am/webui.Job).
type uiJob struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Pool      string `json:"pool"`
	State     string `json:"state"`
	Tasks     int    `json:"tasks"`
	Succeeded int    `json:"succeeded"`
	Running   int    `json:"running"`
	Waiting   int    `json:"waiting"`
}

// uiTokens are the tokens of the local UIs the tests' user started, by
// host:port (ownUI keeps them): getJSON, httpGet and scrapeMetrics send
// a local UI its token in an Authorization header, as its owner's
// scripts would (docs/ui.md), and the owner's browser opens printedUI.
var uiTokens sync.Map

// ownUI takes a UI= URL as it was printed. A local UI's carries its
// token (?token=), which is kept for its host:port, and comes back
// without it, for paths to be appended; a YARN tracking URL comes back
// as it is.
func ownUI(t *testing.T, printed string) string {
	t.Helper()
	u, err := url.Parse(printed)
	if err != nil {
		t.Fatalf("UI=%s: %v", printed, err)
	}
	token := u.Query().Get("token")
	if token == "" {
		return printed
	}
	uiTokens.Store(u.Host, token)
	u.RawQuery = ""
	return u.String()
}

// printedUI is a local UI's URL as its owner's terminal was given it,
// the token included: what the owner opens in a browser.
func printedUI(t *testing.T, ui string) string {
	t.Helper()
	u, err := url.Parse(ui)
	if err != nil {
		t.Fatal(err)
	}
	token, ok := uiTokens.Load(u.Host)
	if !ok {
		t.Fatalf("no token for the UI at %s: not a local UI this test's user started", ui)
	}
	q := u.Query()
	q.Set("token", token.(string))
	u.RawQuery = q.Encode()
	return u.String()
}

// authorize gives req the token of the local UI it goes to, if any.
func authorize(req *http.Request) {
	if token, ok := uiTokens.Load(req.URL.Host); ok {
		req.Header.Set("Authorization", "Bearer "+token.(string))
	}
}

// localUILine is a local UI's UI= line: a loopback URL with its token.
var localUILine = regexp.MustCompile(`(?m)^UI=(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})$`)

// waitForUI waits for what prints a local UI's UI= line to print it,
// and returns its URL without the token (ownUI).
func waitForUI(t *testing.T, what string, out *syncBuffer) string {
	t.Helper()
	var ui string
	waitFor(t, 30*time.Second, what+" to print UI=", func() bool {
		m := localUILine.FindStringSubmatch(out.String())
		if m != nil {
			ui = m[1]
		}
		return m != nil
	})
	return ownUI(t, ui)
}

// getJSON GETs url into v, reporting the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	return resp.StatusCode
}

// httpGet fetches url with client and returns the status and the body.
// To a local UI it sends the token (authorize).
func httpGet(t *testing.T, client *http.Client, url string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	authorize(req)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
