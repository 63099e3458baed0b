package webui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// liveRefresh is how often the UI's pages reload themselves while the
// application runs.
const liveRefresh = 5 * time.Second

// Tracking is what a running driver's tracking page serves.
type Tracking struct {
	// UI is the web UI's, served at / when its Store is set (the
	// driver's history), live: its Live is Status, its Refresh
	// liveRefresh.
	UI Options
	// Status asks the driver's loop for the scheduler's Status now
	// (am.Driver.Status); it fails once the application has ended.
	Status func(ctx context.Context) (core.Status, error)
	// Metrics, when set, serves Prometheus metrics at /metrics
	// (am/metrics).
	Metrics http.Handler
}

// TrackingHandler serves the application's web UI and REST API (from
// the driver's history) behind the tracking URL the ApplicationMaster
// registers, which the RM's web proxy shows as the application's, its
// links under t.UI.Base ("/proxy/<app>" there); and the scheduler's
// Status now: GET /status.txt for people, /status.json for scripts; and
// Prometheus metrics at /metrics.
func TrackingHandler(t Tracking) http.Handler {
	mux := http.NewServeMux()
	if t.UI.Store != nil {
		ui := t.UI
		ui.Live, ui.Refresh = t.Status, liveRefresh
		mux.Handle("/", Handler(ui))
	}
	if t.Metrics != nil {
		mux.Handle("GET /metrics", t.Metrics)
	}
	get := func(w http.ResponseWriter, r *http.Request) (core.Status, bool) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		st, err := t.Status(ctx)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return st, false
		}
		return st, true
	}
	mux.HandleFunc("GET /status.json", func(w http.ResponseWriter, r *http.Request) {
		if st, ok := get(w, r); ok {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(st)
		}
	})
	mux.HandleFunc("GET /status.txt", func(w http.ResponseWriter, r *http.Request) {
		if st, ok := get(w, r); ok {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			writeStatus(w, st)
		}
	})
	return mux
}

// writeStatus prints a Status for people.
func writeStatus(w io.Writer, st core.Status) {
	fmt.Fprintf(w, "%s: job %s, %s\n", st.App, st.Job, time.Duration(st.ElapsedSeconds*float64(time.Second)).Round(time.Second))
	fmt.Fprintf(w, "tasks %d: %d succeeded, %d running, %d pending; %d failed attempts\n",
		st.Tasks, st.Succeeded, st.Running, st.Pending, st.FailedAttempts)
	for _, s := range st.Waiting {
		fmt.Fprintf(w, "stage %s: %d waiting: %s\n", s.Stage, s.Pending, s.Why)
	}
	fmt.Fprintf(w, "executors %d\n", len(st.Executors))
	for _, e := range st.Executors {
		fmt.Fprintf(w, "  %s on %s: %d running%s\n", e.ID, e.Host, e.Running, gpusText(e.GPUs))
	}
	if len(st.Jobs) > 1 || len(st.Pools) > 1 {
		fmt.Fprintf(w, "pools %d, in fair-share order\n", len(st.Pools))
		for _, p := range st.Pools {
			fmt.Fprintf(w, "  %s (%s, weight %d, minShare %d): %d running, %d pending, %d jobs\n", p.Name, p.Mode, p.Weight, p.MinShare, p.Running, p.Pending, p.Jobs)
		}
		fmt.Fprintf(w, "jobs %d\n", len(st.Jobs))
		for _, j := range st.Jobs {
			line := fmt.Sprintf("  %d %s in %s: %s, %d/%d tasks, %d running, %s", j.ID, j.Name, j.Pool, j.State, j.Succeeded, j.Tasks, j.Running,
				time.Duration(j.DurationS*float64(time.Second)).Round(time.Second/10))
			if j.Reason != "" {
				line += ": " + j.Reason
			}
			fmt.Fprintln(w, line)
		}
	}
}

// gpusText is an executor's GPU figures for its line: "; GPU 0 37%
// 1024/81559 MiB", a "?" for each figure nvidia-smi did not give.
func gpusText(gpus []gpuuse.Sample) string {
	var b strings.Builder
	for _, g := range gpus {
		fmt.Fprintf(&b, "; GPU %d %s%% %s/%s MiB", g.Index, orUnknown(g.UtilizationPct), orUnknown(g.MemoryUsedMiB), orUnknown(g.MemoryTotalMiB))
	}
	return b.String()
}

func orUnknown[N int | int64](n *N) string {
	if n == nil {
		return "?"
	}
	return fmt.Sprint(*n)
}
