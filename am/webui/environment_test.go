package webui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/history"
)

// The environment page, linked from every page's header, and its
// resource show the settings as the driver logged them, with their
// sources; a log without them shows none.
func TestTheEnvironmentShowsTheSettings(t *testing.T) {
	s := twoPools(t, 1, 0)
	h := handler(s, nil)
	if _, body := get(t, h, "GET", "/api/v1/environment"); strings.TrimSpace(body) != "[]" {
		t.Errorf("no settings logged: %s, want []", body)
	}
	env := []history.Setting{{Key: "spindle.app.name", Value: "shared", Source: "--conf"},
		{Key: "spindle.executorEnv.DB_PASSWORD", Value: "*********(redacted)", Source: "--conf", Redacted: true},
		{Key: "spindle.ui.retainedJobs", Value: "1000", Source: "default"}}
	if err := s.Record(history.Event{Time: t0, Environment: env}); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, h, "GET", "/jobs/0")
	if want := `<a href="/proxy/application_1_0002/environment">Environment</a>`; !strings.Contains(body, want) {
		t.Errorf("the header has no %s:\n%s", want, body)
	}
	_, body = get(t, h, "GET", "/environment")
	for _, want := range []string{
		`<tr class="setting" data-key="spindle.app.name"><td>spindle.app.name</td><td>shared</td><td>--conf</td></tr>`,
		`<td><em>*********(redacted)</em></td><td>--conf</td>`,
		`<td>spindle.ui.retainedJobs</td><td>1000</td><td>default</td>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the environment page has no %s:\n%s", want, body)
		}
	}
	var got []history.Setting
	_, body = get(t, h, "GET", "/api/v1/environment")
	if err := json.Unmarshal([]byte(body), &got); err != nil || len(got) != 3 || got[1] != env[1] {
		t.Errorf("/api/v1/environment: %v %s", err, body)
	}
}
