package am

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// inLoop runs f in d's loop, as an event, and waits for it: a test's look
// at the loop's own state.
type inLoop struct {
	f    func(d *Driver)
	done chan struct{}
}

func (ev inLoop) feed(d *Driver, _ time.Time) { ev.f(d); close(ev.done) }

func runInLoop(d *Driver, f func(d *Driver)) {
	ev := inLoop{f, make(chan struct{})}
	d.send(ev)
	<-ev.done
}

func u32(v uint32) *uint32 { return &v }
func u64(v uint64) *uint64 { return &v }

// sendGPUs sends a heartbeat carrying gpus, as an executor's sampler does.
func sendGPUs(t *testing.T, conn *wire.Conn, gpus ...*wire.GPUUse) {
	t.Helper()
	if err := conn.Send(&wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{UnixNanos: 1, Gpus: gpus}}}); err != nil {
		t.Fatal(err)
	}
}

// executorGPUs waits until the status shows executor id's GPUs as want
// (JSON), and fails after 5s.
func executorGPUs(t *testing.T, d *Driver, id, want string) core.Status {
	t.Helper()
	var got string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		st := status(t, d)
		for _, e := range st.Executors {
			if e.ID == id {
				b, _ := json.Marshal(e.GPUs)
				if got = string(b); got == want {
					return st
				}
			}
		}
	}
	t.Fatalf("executor %s's GPUs: %s; want %s", id, got, want)
	return core.Status{}
}

// The samples an executor sends reach the status, per executor, the
// latest replacing the last, and go when its connection does.
func TestGPUSamplesReachTheStatus(t *testing.T) {
	d, _ := runDriver(t, Config{}, 1)
	conn := fakeExecutor(t, d, "e1")
	sendGPUs(t, conn, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(37), MemoryUsedMib: u64(1024), MemoryTotalMib: u64(81559)},
		&wire.GPUUse{Index: 1, Uuid: "GPU-bbbb", MemoryTotalMib: u64(81559)})
	executorGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37,"memory_used_mib":1024,"memory_total_mib":81559},`+
		`{"index":1,"uuid":"GPU-bbbb","memory_total_mib":81559}]`)
	page := httptest.NewRecorder()
	trackingPage(d).ServeHTTP(page, httptest.NewRequest("GET", "/status.txt", nil))
	if want := "  e1 on h1: 1 running; GPU 0 37% 1024/81559 MiB; GPU 1 ?% ?/81559 MiB\n"; !strings.Contains(page.Body.String(), want) {
		t.Errorf("the tracking page:\n%s\nwant a line %q", page.Body.String(), want)
	}
	sendGPUs(t, conn, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(99)})
	executorGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":99}]`)
	// A heartbeat without GPUs is no news: the figures stay.
	sendGPUs(t, conn)
	for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		executorGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":99}]`)
	}
	conn.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var kept int
		runInLoop(d, func(d *Driver) { kept = len(d.gpus) })
		if kept == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the driver keeps the GPU figures of %d executors gone", kept)
		}
	}
}

// Only a registered executor's own connection speaks for it: one refused
// under its id does not replace its figures.
func TestGPUSamplesOfARefusedConnectionAreDropped(t *testing.T) {
	d, _ := runDriver(t, Config{}, 1)
	conn := fakeExecutor(t, d, "e1")
	sendGPUs(t, conn, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(37)})
	executorGPUs(t, d, "e1", `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37}]`)
	impostor := dialExecutor(t, d, "e1", 1)
	sendGPUs(t, impostor, &wire.GPUUse{Index: 5, Uuid: "GPU-ffff", UtilizationPct: u32(1)})
	for {
		m, err := impostor.Recv()
		if err != nil {
			break
		}
		if m.GetRejected() == nil {
			t.Fatalf("a second e1 got %v; want it refused", m)
		}
	}
	var kept string
	runInLoop(d, func(d *Driver) { b, _ := json.Marshal(d.gpus[scheduler.ExecutorID("e1")]); kept = string(b) })
	if want := `[{"index":0,"uuid":"GPU-aaaa","utilization_pct":37}]`; kept != want {
		t.Errorf("e1's GPUs after a refused e1 sent some: %s; want %s", kept, want)
	}
}

// Samples no parser would give are not shown, and said once a connection
// in the log; good ones after them are.
func TestBadGPUSamplesAreNotShown(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	d, _ := runDriver(t, Config{Log: log}, 1)
	conn := fakeExecutor(t, d, "e1")
	sendGPUs(t, conn, &wire.GPUUse{Index: 0, Uuid: "GPU-aaaa", UtilizationPct: u32(101)})
	sendGPUs(t, conn, &wire.GPUUse{Index: 0, Uuid: ""})
	sendGPUs(t, conn, &wire.GPUUse{Index: 3, Uuid: "GPU-dddd", UtilizationPct: u32(100)})
	executorGPUs(t, d, "e1", `[{"index":3,"uuid":"GPU-dddd","utilization_pct":100}]`)
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
