package webui

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
)

// The REST API, versioned under /api/v1/ (docs/ui.md): what the pages
// show, as JSON.

// MaxPageLength bounds a page of tasks, in the API and the UI.
const MaxPageLength = 1000

// DefaultPageLength is a page's length when the request names none.
const DefaultPageLength = 100

// Job is a job as the API gives it: its history, and, while it runs,
// why its tasks wait, stage by stage.
type Job struct {
	history.JobView
	Why []core.WaitingStage `json:"why,omitempty"`
}

// Pool is a pool as the API gives it, in fair-share order while the
// application runs.
type Pool struct {
	history.PoolInfo
	Jobs    int `json:"jobs"`
	Running int `json:"running"`
	Waiting int `json:"waiting"`
}

func (u *ui) api(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/session", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, u.o.Store.App())
	})
	mux.HandleFunc("GET /api/v1/jobs", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, u.jobs(u.live(r)))
	})
	mux.HandleFunc("GET /api/v1/jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		if j, ok := u.job(w, r); ok {
			writeJSON(w, j)
		}
	})
	mux.HandleFunc("GET /api/v1/stages/{id}", func(w http.ResponseWriter, r *http.Request) {
		if st, ok := u.stage(w, r); ok {
			writeJSON(w, u.withGang(r, u.withSummary(r, st)))
		}
	})
	mux.HandleFunc("GET /api/v1/stages/{id}/tasks/{index}", func(w http.ResponseWriter, r *http.Request) {
		if t, ok := u.task(w, r); ok {
			writeJSON(w, t)
		}
	})
	mux.HandleFunc("GET /api/v1/stages/{id}/tasks", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := u.tasks(w, r); ok {
			writeJSON(w, u.withGPUUse(r, p))
		}
	})
	mux.HandleFunc("GET /api/v1/pools", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, u.pools(u.live(r)))
	})
	mux.HandleFunc("GET /api/v1/executors", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, u.executors(r))
	})
	mux.HandleFunc("GET /api/v1/timeline", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, u.o.Store.Timeline(u.o.Now()))
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// jobs are the jobs kept, newest first, with why running ones wait.
func (u *ui) jobs(st *core.Status) []Job {
	waiting := waiting(st)
	var out []Job
	for _, j := range u.o.Store.Jobs(u.o.Now()) {
		out = append(out, Job{JobView: j, Why: waiting[j.ID]})
	}
	return out
}

// waiting is why each running job waits, by job, as st (nil: not
// live) says.
func waiting(st *core.Status) map[int64][]core.WaitingStage {
	out := map[int64][]core.WaitingStage{}
	if st != nil {
		for _, j := range st.Jobs {
			out[j.ID] = j.Waiting
		}
	}
	return out
}

// job is the job the request's {id} names, or a 404 written.
func (u *ui) job(w http.ResponseWriter, r *http.Request) (Job, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return Job{}, false
	}
	j, ok := u.o.Store.Job(u.o.Now(), id)
	if !ok {
		http.Error(w, fmt.Sprintf("no job %d (an ended job beyond spindle.ui.retainedJobs is forgotten)", id), http.StatusNotFound)
		return Job{}, false
	}
	return Job{JobView: j, Why: waiting(u.live(r))[id]}, true
}

func (u *ui) stage(w http.ResponseWriter, r *http.Request) (history.StageView, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return history.StageView{}, false
	}
	st, ok := u.o.Store.Stage(u.o.Now(), id)
	if !ok {
		http.Error(w, fmt.Sprintf("no stage %d", id), http.StatusNotFound)
	}
	return st, ok
}

// tasks is the page of the stage's tasks the request asks for: offset,
// length (at most MaxPageLength), state, sort (history.TaskSorts) and
// desc.
func (u *ui) tasks(w http.ResponseWriter, r *http.Request) (history.TaskPage, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return history.TaskPage{}, false
	}
	tq, err := taskQuery(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return history.TaskPage{}, false
	}
	p, ok := u.o.Store.Tasks(u.o.Now(), id, tq)
	if !ok {
		http.Error(w, fmt.Sprintf("no stage %d", id), http.StatusNotFound)
	}
	return p, ok
}

// taskQuery reads a page of tasks' parameters, or says which is wrong.
func taskQuery(q url.Values) (history.TaskQuery, error) {
	var tq history.TaskQuery
	var err error
	if tq.Offset, err = queryInt(q.Get("offset"), 0, 0, 1<<31-1); err != nil {
		return tq, errors.New("offset: " + err.Error())
	}
	if tq.Length, err = queryInt(q.Get("length"), DefaultPageLength, 1, MaxPageLength); err != nil {
		return tq, errors.New("length: " + err.Error())
	}
	tq.State = q.Get("state")
	switch tq.State {
	case "", "pending", history.TaskRunning, history.TaskSucceeded, history.TaskFailed, history.TaskKilled:
	default:
		return tq, fmt.Errorf("state: %q is none of pending, running, succeeded, failed, killed", tq.State)
	}
	if tq.Sort = q.Get("sort"); tq.Sort != "" && !slices.Contains(history.TaskSorts, tq.Sort) {
		return tq, fmt.Errorf("sort: %q is none of %s", tq.Sort, strings.Join(history.TaskSorts, ", "))
	}
	if d := q.Get("desc"); d != "" {
		if tq.Desc, err = strconv.ParseBool(d); err != nil {
			return tq, fmt.Errorf("desc: %q is neither true nor false", d)
		}
	}
	return tq, nil
}

// pools are the pools in fair-share order with the scheduler's counts
// while the application runs, else as the history has them.
func (u *ui) pools(st *core.Status) []Pool {
	hist := u.o.Store.Pools()
	if st == nil {
		out := make([]Pool, 0, len(hist))
		for _, p := range hist {
			out = append(out, Pool{PoolInfo: p.PoolInfo, Jobs: p.Jobs, Running: p.Running, Waiting: p.Waiting})
		}
		return out
	}
	out := make([]Pool, 0, len(st.Pools))
	for _, p := range st.Pools {
		out = append(out, Pool{PoolInfo: history.PoolInfo{Name: p.Name, Mode: p.Mode, Weight: p.Weight, MinShare: p.MinShare},
			Jobs: p.Jobs, Running: p.Running, Waiting: p.Pending})
	}
	return out
}

func pathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, fmt.Sprintf("%q is not an id", r.PathValue("id")), http.StatusBadRequest)
		return 0, false
	}
	return id, true
}

// queryInt reads a query parameter between lo and hi; "" is def.
func queryInt(s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is not between %d and %d", n, lo, hi)
	}
	return n, nil
}
