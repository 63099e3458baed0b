package webui

import (
	"context"
	"embed"
	"html/template"
	"net/http"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
)

// Options say what a Handler serves.
type Options struct {
	Store *history.Store
	// Live, while the application runs, is the scheduler's view now
	// (why each job's tasks wait, pools in fair-share order); nil once
	// it has ended.
	Live func(ctx context.Context) (core.Status, error)
	// Base is the path the pages are served under as their reader sees
	// it: "/proxy/<app>" behind the RM's web proxy, "" locally.
	Base string
	// Refresh is how often a page reloads itself (0: never, as for an
	// ended application).
	Refresh time.Duration
	// Now is the clock running things' durations are measured to (nil:
	// time.Now).
	Now func() time.Time
	// TaskFiles, locally, is the directory of the executors' task files
	// (a directory per executor): the UI serves a task's stdout and
	// stderr from there (task_files.go). On YARN each executor names its
	// NodeManager's page instead (ExecutorAdded.LogURL).
	TaskFiles string
}

//go:embed templates/*.html
var templateFiles embed.FS

// Handler serves the UI and the REST API.
func Handler(o Options) http.Handler {
	if o.Now == nil {
		o.Now = time.Now
	}
	u := &ui{o: o, pages: parsePages(o.Base, o.TaskFiles != "")}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", u.sessionPage)
	mux.HandleFunc("GET /jobs/{id}", u.jobPage)
	mux.HandleFunc("GET /stages/{id}", u.stagePage)
	mux.HandleFunc("GET /stages/{id}/tasks/{index}", u.taskPage)
	mux.HandleFunc("GET /pools", u.poolsPage)
	mux.HandleFunc("GET /executors", u.executorsPage)
	mux.HandleFunc("GET /environment", u.environmentPage)
	mux.HandleFunc("GET /api/v1/environment", u.environmentAPI)
	if o.TaskFiles != "" {
		mux.HandleFunc("GET /logs/{executor}/{file}", u.taskFile)
	}
	u.api(mux)
	return mux
}

type ui struct {
	o     Options
	pages map[string]*template.Template
}

// live is the scheduler's view, or none when the application ended or
// the loop does not answer in time (the pages show the history alone).
func (u *ui) live(r *http.Request) *core.Status {
	if u.o.Live == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	st, err := u.o.Live(ctx)
	if err != nil {
		return nil
	}
	return &st
}
