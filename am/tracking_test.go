package am

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The tracking page shows the running job and why its tasks wait, and
// says so plainly once the job has ended.
func TestTrackingPageShowsTheJobAndWhyItWaits(t *testing.T) {
	d, err := New(Config{Core: core.Config{AppID: "application_1_0001", Profiles: []scheduler.Profile{{Cores: 2}}}, Executors: listen(t, testSecret)})
	if err != nil {
		t.Fatal(err)
	}
	job, err := jobspec.Short("tracked", 3, []string{"true"}, jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { d.Run(ctx, job, nil); close(ran) }()
	srv := httptest.NewServer(TrackingHandler(d, ""))
	defer srv.Close()

	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, text := get("/")
	if code != 200 || !strings.Contains(text, "application_1_0001: job tracked") || !strings.Contains(text, "tasks 3: 0 succeeded, 0 running, 3 pending") ||
		!strings.Contains(text, "3 waiting: ") || !strings.Contains(text, "executors 0") {
		t.Fatalf("GET / = %d\n%s", code, text)
	}
	code, body := get("/status.json")
	var st core.Status
	if err := json.Unmarshal([]byte(body), &st); code != 200 || err != nil || st.Job != "tracked" || st.Pending != 3 || len(st.Waiting) != 1 || st.Waiting[0].Why == "" {
		t.Fatalf("GET /status.json = %d %v\n%s", code, err, body)
	}
	if code, _ := get("/nothing"); code != http.StatusNotFound {
		t.Errorf("GET /nothing = %d, want 404", code)
	}
	cancel()
	<-ran
	if code, text := get("/"); code != http.StatusServiceUnavailable || !strings.Contains(text, "ended") {
		t.Errorf("after the job: GET / = %d %q", code, text)
	}
}
