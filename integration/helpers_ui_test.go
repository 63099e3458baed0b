package integration

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
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

// getJSON GETs url into v, reporting the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
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
func httpGet(t *testing.T, client *http.Client, url string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
