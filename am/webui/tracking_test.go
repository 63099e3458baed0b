package webui_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// The tracking page shows the running job and why its tasks wait, and
// says so plainly once the job has ended; the UI beside it shows the
// job from the driver's history, during and after.
func TestTrackingPageShowsTheJobAndWhyItWaits(t *testing.T) {
	executors, err := wire.Listen("tcp", "127.0.0.1:0", []byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	defer executors.Close()
	store := history.NewStore(history.Limits{})
	d, err := am.New(am.Config{Core: core.Config{AppID: "application_1_0001", Profiles: []scheduler.Profile{{Cores: 2}}}, Executors: executors,
		Observe: am.Observation{Store: store, App: history.AppStarted{ID: "application_1_0001"}}})
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
	srv := httptest.NewServer(webui.TrackingHandler(webui.Tracking{UI: webui.Options{Store: store}, Status: d.Status}))
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
	code, text := get("/status.txt")
	if code != 200 || !strings.Contains(text, "application_1_0001: job tracked") || !strings.Contains(text, "tasks 3: 0 succeeded, 0 running, 3 pending") ||
		!strings.Contains(text, "3 waiting: ") || !strings.Contains(text, "executors 0") {
		t.Fatalf("GET /status.txt = %d\n%s", code, text)
	}
	code, page := get("/")
	if code != 200 || !strings.Contains(page, `<title>Jobs · tracked · Spindle</title>`) || !strings.Contains(page, "main: 3 waiting: no executor of profile 0") {
		t.Fatalf("GET / = %d\n%s", code, page)
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
	if code, text := get("/status.txt"); code != http.StatusServiceUnavailable || !strings.Contains(text, "ended") {
		t.Errorf("after the job: GET /status.txt = %d %q", code, text)
	}
	if code, page := get("/api/v1/jobs"); code != 200 || !strings.Contains(page, `"state":"cancelled"`) {
		t.Errorf("after the job: GET /api/v1/jobs = %d %s", code, page)
	}
}
