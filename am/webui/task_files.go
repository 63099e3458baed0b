package webui

import (
	"net/http"
	"path/filepath"
	"regexp"
)

// taskFileName is what a task attempt's output file is called
// (executor/tasklog): nothing else under the task files' directory is
// served, and no path reaches out of it.
var taskFileName = regexp.MustCompile(`^job\d+-stage\d+-task\d+-attempt\d+\.(stdout|stderr)$`)

// taskFile serves a task's stdout or stderr from an executor's directory
// of task files (local mode), as plain text.
func (u *ui) taskFile(w http.ResponseWriter, r *http.Request) {
	executor, file := r.PathValue("executor"), r.PathValue("file")
	known := false
	for _, x := range u.o.Store.Executors(u.o.Now()) {
		known = known || x.ID == executor
	}
	// A path segment each: neither can climb out of the directory.
	if !known || !taskFileName.MatchString(file) {
		http.Error(w, "no such task file: want an executor of the application and an attempt's .stdout or .stderr", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeFile(w, r, filepath.Join(u.o.TaskFiles, executor, file))
}

// outputLink is where a browser reads an attempt's stdout or stderr
// (suffix) named file: on YARN its executor's NodeManager page
// (logURL), locally the UI's own /logs/ under base; "" for nowhere.
func outputLink(base string, local bool) func(executor, logURL, file, suffix string) string {
	return func(executor, logURL, file, suffix string) string {
		switch {
		case file == "":
			return ""
		case logURL != "":
			return logURL + "/" + file + "." + suffix
		case local && executor != "":
			return base + "/logs/" + executor + "/" + file + "." + suffix
		}
		return ""
	}
}
