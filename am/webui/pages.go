package webui

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// parsePages parses each page's template with the layout, its links
// under base; local says the UI serves task files itself.
func parsePages(base string, local bool) map[string]*template.Template {
	funcs := template.FuncMap{
		"url":    func(path string, args ...any) string { return base + fmt.Sprintf(path, args...) },
		"output": outputLink(base, local),
		"dur": func(s float64) string {
			return time.Duration(s * float64(time.Second)).Round(time.Millisecond * 100).String()
		},
		"when": func(v any) string {
			switch t := v.(type) {
			case time.Time:
				return t.UTC().Format("2006-01-02 15:04:05")
			case *time.Time:
				if t != nil {
					return t.UTC().Format("2006-01-02 15:04:05")
				}
			}
			return ""
		},
		"join":   strings.Join,
		"gpuUse": formatGPUUse,
		"accels": formatAccels,
		"pct": func(part, whole int) int {
			if whole == 0 {
				return 0
			}
			return 100 * part / whole
		},
	}
	pages := map[string]*template.Template{}
	// Templates some pages share: the stage's summary, its gang's
	// attempts and its gang section, and an attempt's output links.
	shared := map[string][]string{"stage": {"stage_summary", "attempt_output", "gang"}, "task": {"attempt_output"}}
	for _, name := range []string{"session", "job", "stage", "task", "pools", "executors", "environment"} {
		files := []string{"templates/layout.html", "templates/" + name + ".html"}
		for _, f := range shared[name] {
			files = append(files, "templates/"+f+".html")
		}
		pages[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, files...))
	}
	return pages
}

// page is what every page's layout takes.
type page struct {
	Title   string
	App     history.AppView
	Refresh int // seconds; 0: none
	Live    bool
	Body    any
}

func (u *ui) render(w http.ResponseWriter, name, title string, body any) {
	p := page{Title: title, App: u.o.Store.App(), Live: u.o.Live != nil, Body: body}
	if u.o.Live != nil && p.App.Ended == nil {
		p.Refresh = int(u.o.Refresh.Seconds())
	}
	var buf bytes.Buffer
	if err := u.pages[name].Execute(&buf, p); err != nil {
		http.Error(w, "the page did not render: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	buf.WriteTo(w)
}

type sessionBody struct {
	Jobs      []Job
	Pools     []Pool
	Executors int
	Chart     template.HTML
}

func (u *ui) sessionPage(w http.ResponseWriter, r *http.Request) {
	st := u.live(r) // once: each asks the loop
	b := sessionBody{Jobs: u.jobs(st), Pools: u.pools(st), Chart: timelineSVG(u.o.Store.Timeline(u.o.Now()))}
	u.render(w, "session", "Jobs", b)
}

func (u *ui) jobPage(w http.ResponseWriter, r *http.Request) {
	if j, ok := u.job(w, r); ok {
		u.render(w, "job", fmt.Sprintf("Job %d: %s", j.ID, j.Name), j)
	}
}

type stageBody struct {
	Stage      Stage
	Page       TaskPage
	State      string
	Prev, Next string // query strings of the neighbouring pages; "" for none
	First      int    // the page's first task's place in the list, from 1
	Last       int
	// LocalFiles says the UI serves task files (Options.TaskFiles).
	LocalFiles bool
	States     []string
	// SortBy is each sortable column's link (sort_links.go); Sort and
	// Desc the order asked for, which the state filter keeps.
	SortBy     map[string]string
	Sort, Desc string
	// Gang is a gang stage's section; nil for another stage.
	Gang *gangSection
}

func (u *ui) stagePage(w http.ResponseWriter, r *http.Request) {
	st, ok := u.stage(w, r)
	if !ok {
		return
	}
	p, ok := u.tasks(w, r)
	if !ok {
		return
	}
	query := r.URL.Query()
	b := stageBody{Stage: u.withSummary(r, st), Page: u.withGPUUse(r, p), State: query.Get("state"), First: p.Offset + 1, Last: p.Offset + len(p.Tasks), LocalFiles: u.o.TaskFiles != "",
		States: []string{"pending", history.TaskRunning, history.TaskSucceeded, history.TaskFailed, history.TaskKilled}, SortBy: sortLinks(query),
		Sort: query.Get("sort"), Desc: query.Get("desc")}
	b.Stage = u.withGang(r, b.Stage)
	if b.Stage.GangRuns != nil {
		b.Gang = u.gangSection(b.Stage.GangRuns)
	}
	length := max(len(p.Tasks), DefaultPageLength)
	if l := query.Get("length"); l != "" {
		length, _ = strconv.Atoi(l)
	}
	q := func(offset int) string {
		v := url.Values{"offset": {strconv.Itoa(offset)}, "length": {strconv.Itoa(length)}}
		for _, k := range []string{"state", "sort", "desc"} {
			if query.Get(k) != "" {
				v.Set(k, query.Get(k))
			}
		}
		return "?" + v.Encode()
	}
	if p.Offset > 0 {
		b.Prev = q(max(p.Offset-length, 0))
	}
	if p.Offset+len(p.Tasks) < p.Total {
		b.Next = q(p.Offset + length)
	}
	u.render(w, "stage", fmt.Sprintf("Stage %d: %s", st.ID, st.Name), b)
}

func (u *ui) poolsPage(w http.ResponseWriter, r *http.Request) {
	u.render(w, "pools", "Pools", u.pools(u.live(r)))
}

func (u *ui) executorsPage(w http.ResponseWriter, r *http.Request) {
	u.render(w, "executors", "Executors", u.executors(r))
}
