package webui

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/history"
)

// An executor's and a task's accelerators besides GPUs show beside their
// GPUs, on the pages and in the API.
func TestAcceleratorsShowBesideGPUs(t *testing.T) {
	s := twoPools(t, 3, 0)
	fpga := []history.Resource{{Name: "fpga", Addresses: []string{"2", "3"}}}
	s.Record(history.Event{Time: t0, ExecutorAdded: &history.ExecutorAdded{ID: "e2", Host: "nm2", Cores: 2, Accels: fpga}},
		history.Event{Time: t0, TaskStarted: &history.TaskStarted{Stage: 0, Index: 1, Executor: "e2", Accels: []history.Resource{{Name: "fpga", Addresses: []string{"3"}}}}})
	h := handler(s, nil)
	for path, want := range map[string]string{
		"/executors":               `<div class="accels">fpga 2,3</div>`,
		"/stages/0":                `<div class="accels">fpga 3</div>`,
		"/stages/0/tasks/1":        `<div class="accels">fpga 3</div>`,
		"/api/v1/stages/0/tasks/1": `"accels":[{"name":"fpga","addresses":["3"]}]`,
		"/api/v1/executors":        `"accels":[{"name":"fpga","addresses":["2","3"]}]`,
		"/api/v1/stages/0/tasks":   `"accels":[{"name":"fpga","addresses":["3"]}]`,
	} {
		if code, body := get(t, h, "GET", path); code != 200 || !strings.Contains(body, want) {
			t.Errorf("%s: %d, no %s:\n%s", path, code, want, body)
		}
	}
}
