package am_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
)

func u32(v uint32) *uint32 { return &v }
func u64(v uint64) *uint64 { return &v }

// gpusOf is executor id's GPU figures in st, as JSON.
func gpusOf(st core.Status, id string) string {
	for _, e := range st.Executors {
		if e.ID == id {
			b, _ := json.Marshal(e.GPUs)
			return string(b)
		}
	}
	return "no executor " + id
}

// awaitGPUs waits for a turn whose status shows executor id's GPUs as
// want (JSON).
func awaitGPUs(t *testing.T, d *amtest.Driver, id, want string) core.Status {
	t.Helper()
	return d.AwaitStatus(t, fmt.Sprintf("executor %s's GPUs %s", id, want), func(st core.Status) bool { return gpusOf(st, id) == want })
}

// The samples an executor sends reach the status, per executor, the
// latest replacing the last, and go when its connection does.
func TestGPUSamplesReachTheStatus(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 2, "true"))
	e := d.Register(t, "e1", amtest.GPUs("0", "1"))
	first := e.Launches(t)[0]
	e.Heartbeat(t, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(37), MemoryUsedMib: u64(1024), MemoryTotalMib: u64(81559)},
		&wire.GPUUse{Index: 1, Uuid: "GPU-bbbb", MemoryTotalMib: u64(81559)})
	awaitGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37,"memory_used_mib":1024,"memory_total_mib":81559},`+
		`{"index":1,"uuid":"GPU-bbbb","memory_total_mib":81559}]`)
	rec := httptest.NewRecorder()
	d.TrackingPage().ServeHTTP(rec, httptest.NewRequest("GET", "/status.txt", nil))
	page, _ := io.ReadAll(rec.Body)
	if want := "  e1 on h1: 1 running; GPU 0 37% 1024/81559 MiB; GPU 1 ?% ?/81559 MiB\n"; !strings.Contains(string(page), want) {
		t.Errorf("the tracking page:\n%s\nwant a line %q", page, want)
	}
	e.Heartbeat(t, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(99)})
	awaitGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":99}]`)
	// A heartbeat without GPUs is no news: the figures stay. The task's
	// success, sent after it, reaches the loop after it too.
	e.Heartbeat(t)
	e.Report(t, amtest.Succeeded(first))
	st := d.AwaitStatus(t, "the first task's success", func(st core.Status) bool { return st.Succeeded == 1 })
	if got, want := gpusOf(st, "e1"), `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":99}]`; got != want {
		t.Errorf("after a heartbeat without GPUs, e1's GPUs are %s; want %s", got, want)
	}
	e.Vanish()
	d.AwaitStatus(t, "e1 gone", func(st core.Status) bool { return len(st.Executors) == 0 })
	if kept := am.GPUFiguresKept(d.Driver); kept != 0 {
		t.Fatalf("the driver keeps the GPU figures of %d executors gone", kept)
	}
}

// Only a registered executor's own connection speaks for it: one refused
// under its id does not replace its figures.
func TestGPUSamplesOfARefusedConnectionAreDropped(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	e := d.Register(t, "e1")
	e.Launches(t)
	e.Heartbeat(t, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(37)})
	awaitGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37}]`)
	impostor := d.Register(t, "e1")
	impostor.Heartbeat(t, &wire.GPUUse{Index: 5, Uuid: "GPU-ffff", UtilizationPct: u32(1)})
	impostor.Rejected(t)
	if m, err := impostor.Ended(t); len(m) > 0 {
		t.Fatalf("a refused e1 got %v after Rejected (%v); want the connection closed", m, err)
	}
	st := d.AwaitStatus(t, "a turn after the refusal", func(core.Status) bool { return true })
	if got, want := gpusOf(st, "e1"), `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37}]`; got != want {
		t.Errorf("e1's GPUs after a refused e1 sent some: %s; want %s", got, want)
	}
}

// Samples no parser would give are not shown, and said once a connection
// in the log; good ones after them are.
func TestBadGPUSamplesAreNotShown(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"), amtest.WithLog(log))
	e := d.Register(t, "e1")
	e.Launches(t)
	e.Heartbeat(t, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(101)})
	e.Heartbeat(t, &wire.GPUUse{Index: 0, Uuid: ""})
	e.Heartbeat(t, &wire.GPUUse{Index: 3, Uuid: "GPU-dddd", UtilizationPct: u32(100)})
	awaitGPUs(t, d, "e1", `[{"index":3,"uuid":"GPU-dddd","utilization_pct":100}]`)
	var warnings []string
	for _, e := range hook.AllEntries() {
		if e.Message == "the executor's GPU figures are not shown" {
			warnings = append(warnings, fmt.Sprint(e.Data["error"]))
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "utilization 101%") {
		t.Errorf("warnings %q; want one, about the utilization of 101%%", warnings)
	}
}
